use super::*;
use crate::bundle::ErrorEntry;

/// Messages as the tools wrote them in the corpus (tests/corpus) and what they normalise to.
#[test]
fn corpus_messages_normalise_as_the_rules_say() {
    let cases = [
        // JMeter (jmeter-csv/*): short messages stay as written.
        ("Bad request", "Bad request"),
        ("Not Found", "Not Found"),
        ("Non HTTP response message: blazdemo.com: Name or service not known", "Non HTTP response message: blazdemo.com: Name or service not known"),
        ("__on_request_failure() got an unexpected keyword argument 'response_length'", "__on_request_failure() got an unexpected keyword argument 'response_length'"),
        // taurus-doublequoting.jtl: the hexadecimal id of a URL.
        (
            "Embedded resource download error:https://mosaic02.ztat.net/nvg/z-header-fragment/05f0425a983d4945922b/header_lipstick.css code:200",
            "Embedded resource download error:https://mosaic02.ztat.net/nvg/z-header-fragment/{id}/header_lipstick.css code:200",
        ),
        // Transaction Controllers (taurus-tranctl.jtl, taurus-kpi-nonhttp.jtl), whatever the numbers.
        ("Number of samples in transaction : 1, number of failing samples : 1", CONTROLLER_CAUSE),
        ("Number of samples in transaction : 3, number of failing samples : 2", CONTROLLER_CAUSE),
        // Gatling KO messages (gatling/*simulation.log): statuses are kept, so causes stay apart.
        ("status.find.is(200), but actually found 404", "status.find.is(200), but actually found 404"),
        ("status.find.in(200,201,202,203,204,205,206,207,208,209,304), found 500", "status.find.in(200,201,202,203,204,205,206,207,208,209,304), found 500"),
        ("status.find.lessThanOrEqual(399), but actually 401 is not less than or equal to 399", "status.find.lessThanOrEqual(399), but actually 401 is not less than or equal to 399"),
        ("jsonPath($.offers[0:4].id).findAll.exists, found nothing", "jsonPath($.offers[{n}:{n}].id).findAll.exists, found nothing"),
        ("j.n.UnknownHostException: api.stage.openshift.com", "j.n.UnknownHostException: api.stage.openshift.com"),
        // k6 and Locust style messages.
        ("dial tcp 10.0.12.7:8080: connect: connection refused", "dial tcp {ip}:{port}: connect: connection refused"),
        ("request timeout after 60000 ms", "request timeout after {n} ms"),
        ("HTTPError('500 Server Error: Internal Server Error for url: /api/items/12345')", "HTTPError('500 Server Error: Internal Server Error for url: /api/items/{n}')"),
        ("CatchResponseError('Got wrong response')", "CatchResponseError('Got wrong response')"),
        // Ids, times, white space.
        ("order 0b6e1c3a-9f2d-4e8b-a1c7-3d5e6f708192 not found", "order {uuid} not found"),
        ("session a81f9c20d1 expired", "session {id} expired"),
        ("user 'u-42' unknown", "user '{q}' unknown"),
        ("token eyJhbGciOiJIUzI1NiJ9abc rejected", "token {id} rejected"),
        ("lock held since 2024-05-01T10:20:30.123Z by worker 7", "lock held since {time} by worker {n}"),
        ("at 2024-05-01 10:20:30+02:00", "at {time}"),
        ("started 10:20:30, failed", "started {time}, failed"),
        ("user_12345 and order-987654", "user_{n} and order-{n}"),
        ("HTTP/1.1 503 Service Unavailable", "HTTP/1.1 503 Service Unavailable"),
        // taurus-cp1255.jtl; folio_failures.csv (percent-encoded URLs).
        ("file encoding supposes to be UTF8, but got: Cp1255", "file encoding supposes to be UTF8, but got: Cp1255"),
        ("for url: /search?query=title%20all%20%22x%22&limit=2000", "for url: /search?query=title%20all%20%22x%22&limit={n}"),
        ("request req12345678 and user1234", "request {id} and user1234"),
        ("took 1.5 s", "took {n} s"),
        ("  line one\n\tline two  ", "line one line two"),
        ("can't connect, isn't it", "can't connect, isn't it"),
        ("", ""),
    ];
    for (raw, want) in cases {
        assert_eq!(normalise(raw), want, "{raw:?}");
    }
}

#[test]
fn occurrences_of_one_cause_group_and_long_messages_are_cut() {
    let a = normalise(
        "Timeout waiting for connection from pool after 30001 ms (request 7f3a9c21-0000-4000-8000-00000000beef)",
    );
    let b = normalise(
        "Timeout waiting for connection from pool after 29998 ms (request 1f3a9c21-0000-4000-8000-00000000cafe)",
    );
    assert_eq!(a, b);
    let long = "x ".repeat(400);
    let n = normalise(&long);
    assert_eq!(n.chars().count(), normalise::MAX_CHARS + 1);
    assert!(n.ends_with('…'));
}

/// Failures of a made-up run: (transaction, code, message, epoch ms).
fn failures() -> Vec<(&'static str, &'static str, String, Option<i64>)> {
    let mut v = Vec::new();
    for i in 0..3000i64 {
        let t = 1_700_000_000_000 + i * 37;
        let (txn, code) = [("login", "500"), ("search", "503"), ("", "")][(i % 3) as usize];
        let msg = match i % 5 {
            0 => format!("timeout after {} ms", 1000 + i),
            1 => "Internal Server Error".to_string(),
            2 => format!("Number of samples in transaction : {}, number of failing samples : 1", i % 4 + 1),
            3 => format!("user {} unknown", i),
            _ => String::new(),
        };
        v.push((txn, code, msg, (i % 11 != 0).then_some(t)));
    }
    v
}

fn add_all(c: &mut Causes, f: &[(&str, &str, String, Option<i64>)]) {
    for (txn, code, msg, t) in f {
        c.add(txn, code.as_bytes(), msg.as_bytes(), *t, 1);
    }
}

#[test]
fn counts_first_last_and_examples_agree_with_a_brute_force_count() {
    let f = failures();
    let mut c = Causes::default();
    add_all(&mut c, &f);
    let entries = c.entries(1_700_000_000_000);
    assert_eq!(entries.iter().map(|e| e.count.unwrap_or(0)).sum::<u64>(), f.len() as u64);
    for e in &entries {
        let mine: Vec<_> = f
            .iter()
            .filter(|(t, code, m, _)| {
                e.transaction.as_deref().unwrap_or("") == *t
                    && e.code.as_deref().unwrap_or("") == *code
                    && (if m.is_empty() { "(no message)".to_string() } else { normalise(m) }) == e.message
            })
            .collect();
        assert_eq!(e.count, Some(mine.len() as u64), "{}", e.key());
        let times: Vec<i64> = mine.iter().filter_map(|x| x.3).collect();
        let first = times.iter().min().map(|t| (t - 1_700_000_000_000) as f64 / 1000.0);
        let last = times.iter().max().map(|t| (t - 1_700_000_000_000) as f64 / 1000.0);
        assert_eq!((e.first_s, e.last_s), (first, last), "{}", e.key());
        // The example is the first original message, when normalising changed it.
        let first_raw = mine[0].2.trim();
        assert_eq!(e.example.as_deref(), (first_raw != e.message && !first_raw.is_empty()).then_some(first_raw));
    }
    // Transaction Controller messages are one cause per (transaction, code), whatever the numbers.
    let ctl: Vec<&ErrorEntry> = entries.iter().filter(|e| e.message == CONTROLLER_CAUSE).collect();
    assert_eq!(ctl.len(), 3);
    assert_eq!(ctl.iter().map(|e| e.count.unwrap_or(0)).sum::<u64>(), 600);
    // Most failures first.
    assert!(entries.windows(2).all(|w| w[0].count >= w[1].count));
}

#[test]
fn merged_parts_equal_one_pass_and_survive_borsh() {
    let f = failures();
    let mut one = Causes::default();
    add_all(&mut one, &f);
    for cut_at in [0, 1, 777, 1500, 2999, 3000] {
        let (a, b) = f.split_at(cut_at);
        let mut pa = Causes::default();
        add_all(&mut pa, a);
        let mut pb = Causes::default();
        add_all(&mut pb, b);
        let pb: Causes = borsh::from_slice(&borsh::to_vec(&pb).unwrap()).unwrap();
        let mut merged: Causes = borsh::from_slice(&borsh::to_vec(&pa).unwrap()).unwrap();
        merged.merge(pb);
        assert_eq!(merged.causes, one.causes, "cut at {cut_at}");
        assert_eq!(merged.entries(0), one.entries(0));
        assert_eq!(merged.cause_timelines(1_699_999_990_000, 10, 20), one.cause_timelines(1_699_999_990_000, 10, 20));
    }
}

#[test]
fn timelines_bucket_per_second_counts() {
    let f = failures();
    let mut c = Causes::default();
    add_all(&mut c, &f);
    let (start, width, buckets) = (1_699_999_995_000i64, 5u32, 12u32);
    let tl = c.cause_timelines(start, width, buckets);
    for t in &tl {
        let mut want = std::collections::BTreeMap::new();
        for (txn, code, m, ms) in &f {
            let msg = if m.is_empty() { "(no message)".to_string() } else { normalise(m) };
            if (*txn, *code, msg.as_str())
                != (t.transaction.as_str(), t.code.as_deref().unwrap_or(""), t.message.as_str())
            {
                continue;
            }
            if let Some(ms) = ms {
                let b = (ms.div_euclid(1000) * 1000 - start).div_euclid(width as i64 * 1000);
                if (0..buckets as i64).contains(&b) {
                    *want.entry(b as u64).or_insert(0u64) += 1;
                }
            }
        }
        let want: Vec<u64> = want.into_iter().flat_map(|(b, n)| [b, n]).collect();
        assert_eq!(t.counts, want, "{:?}", t.message);
    }
    // Every cause with a timed failure inside the buckets has a timeline.
    assert_eq!(tl.len(), c.entries(0).iter().filter(|e| e.first_s.is_some()).count());
}

#[test]
fn causes_beyond_the_cap_are_counted_under_other_causes() {
    let mut c = Causes::default();
    for i in 0..(MAX_CAUSES + 10) {
        c.add(&format!("t{i}"), b"500", b"boom", Some(1000), 1 + u64::from(i < 5));
    }
    let e = c.entries(0);
    assert_eq!(e.len(), MAX_CAUSES + 1);
    let other = e.last().unwrap();
    assert_eq!((other.message.as_str(), other.count), (OTHER_CAUSES, Some(10)));
    assert_eq!(e.iter().map(|e| e.count.unwrap_or(0)).sum::<u64>(), MAX_CAUSES as u64 + 10 + 5);
    assert!(c.warning().unwrap().contains("10 failures"));
}

#[test]
fn failures_out_of_time_order_count_the_same() {
    let f = failures();
    let mut sorted = Causes::default();
    add_all(&mut sorted, &f);
    // A fixed shuffle (samples of a JTL are written by end time, so starts come out of order).
    let mut shuffled = f.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, (i * 7919 + 13) % (i + 1));
    }
    let mut c = Causes::default();
    add_all(&mut c, &shuffled);
    let strip = |c: &Causes| -> Vec<ErrorEntry> {
        c.entries(0).into_iter().map(|e| ErrorEntry { example: None, ..e }).collect()
    };
    assert_eq!(strip(&c), strip(&sorted));
    assert_eq!(c.cause_timelines(1_699_999_990_000, 1, 200), sorted.cause_timelines(1_699_999_990_000, 1, 200));
    assert!(c.causes.iter().all(|c| c.per_second.windows(2).all(|w| w[0].0 < w[1].0)), "seconds ascending");
}
