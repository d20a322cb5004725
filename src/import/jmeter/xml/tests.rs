//! Tests of the XML JTL importer: sub-samples, skipped bodies, XStream-form samples, broken and
//! cut-off files, text that is not valid UTF-8.

use super::*;
use crate::import::{import_bytes, Format, Progress};

fn txn<'a>(run: &'a Run, name: &str) -> &'a crate::bundle::Transaction {
    run.transactions.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no transaction {name:?}"))
}

fn warnings(imp: &crate::import::Imported) -> Vec<String> {
    imp.warnings.iter().map(|w| w.to_string()).collect()
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n";

#[test]
fn nested_samples_are_not_counted_and_controllers_are_marked() {
    let xml = format!(
        "{HEAD}<sample t=\"300\" ts=\"1000\" s=\"false\" lb=\"TC\" rc=\"200\" rm=\"Number of samples in transaction : 2, number of failing samples : 1\">\n\
         <httpSample t=\"100\" ts=\"1000\" s=\"true\" lb=\"a\" rc=\"200\" rm=\"OK\"><responseData class=\"java.lang.String\">&lt;html&gt;</responseData></httpSample>\n\
         <httpSample t=\"200\" ts=\"1100\" s=\"false\" lb=\"b\" rc=\"500\" rm=\"Oops\"><httpSample t=\"5\" ts=\"1100\" s=\"true\" lb=\"b-0\"/></httpSample>\n\
         </sample>\n<httpSample t=\"40\" ts=\"2000\" s=\"true\" lb=\"plain &amp; simple\" rc=\"200\" rm=\"OK\" by=\"10\" sby=\"3\"/>\n</testResults>\n"
    );
    let imp = import_bytes("r.jtl", xml.as_bytes()).unwrap();
    assert_eq!(imp.format, Format::JmeterXml);
    let run = &imp.bundle.runs[0];
    assert_eq!(run.transactions.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["TC", "plain & simple"]);
    assert_eq!((txn(run, "TC").samples, txn(run, "TC").errors), (Some(1), Some(1)));
    let plain = txn(run, "plain & simple");
    assert_eq!((plain.bytes_received, plain.bytes_sent), (Some(10), Some(3)));
    // The controller is left out of the total because a plain sample exists.
    assert_eq!(run.kpis.iter().find(|k| k.name == "Samples").map(|k| k.value), Some(1.0));
    // a, b and b-0 are sub-samples (b-0 is nested twice).
    assert!(run.notes.iter().any(|n| n.starts_with("2 sub-samples")), "{:?}", run.notes);
    // A Transaction Controller's failure reads as such, whatever its numbers.
    assert_eq!(run.errors[0].key(), "TC: 200/failing child samples (Transaction Controller)");
    let example = run.errors[0].example.as_deref();
    assert_eq!(example, Some("Number of samples in transaction : 2, number of failing samples : 1"));
}

#[test]
fn response_bodies_are_skipped_without_being_buffered() {
    let body = "x".repeat(4 << 20);
    let xml = format!(
        "{HEAD}<httpSample t=\"7\" ts=\"1\" s=\"true\" lb=\"big\" rc=\"200\" rm=\"OK\">\n  <responseData class=\"java.lang.String\">{body}</responseData>\n  <requestHeader>{body}</requestHeader>\n</httpSample>\n</testResults>\n"
    );
    let progress = Progress::default();
    let mut ctx = Ctx::new("big.jtl", &progress);
    let parsed = parse(&mut ctx, Box::new(xml.as_bytes())).unwrap();
    assert_eq!(parsed.part.records, 1);
    assert!(parsed.largest_event < 64 << 10, "quick-xml buffered {} bytes", parsed.largest_event);
    let run = finish_parts(&mut ctx, vec![parsed.part]).unwrap();
    assert_eq!(run.transactions[0].max_ms, Some(7.0));
}

#[test]
fn xstream_form_samples_are_read_from_their_children() {
    let xml = format!(
        "{HEAD}<com.example.ResultWithSubs>\n  <saveConfig><label>true</label><time>true</time></saveConfig>\n  <responseData>QUJD</responseData>\n\
         <label>http://x/ &amp; y</label>\n  <responseCode>500</responseCode>\n  <responseMessage>&lt;boom&gt;</responseMessage>\n\
         <timeStamp>0</timeStamp>\n  <startTime>1431506202173</startTime>\n  <endTime>1431506202273</endTime>\n  <success>false</success>\n\
         </com.example.ResultWithSubs>\n<other><x/></other>\n</testResults>\n"
    );
    let imp = import_bytes("wd.jtl", xml.as_bytes()).unwrap();
    let run = &imp.bundle.runs[0];
    let t = txn(run, "http://x/ & y");
    assert_eq!((t.samples, t.errors, t.max_ms), (Some(1), Some(1), Some(100.0)));
    assert_eq!(run.start.as_deref(), Some("2015-05-13T08:36:42.173Z"));
    assert_eq!(run.errors[0].key(), "http://x/ & y: 500/<boom>");
    assert!(
        warnings(&imp).iter().any(|w| w.starts_with("line 14: <other> elements carry no sample fields")),
        "{:?}",
        warnings(&imp)
    );
}

#[test]
fn cut_off_and_broken_files_keep_what_was_read_and_say_where() {
    let cut = format!("{HEAD}<httpSample t=\"5\" ts=\"1\" s=\"true\" lb=\"a\"/>\n<httpSample t=\"6\" ts=\"2\" s=\"true\" lb=\"a\">\n<responseData>partial");
    let imp = import_bytes("cut.jtl", cut.as_bytes()).unwrap();
    assert_eq!(txn(&imp.bundle.runs[0], "a").samples, Some(2));
    assert!(
        warnings(&imp).iter().any(|w| w.starts_with("line 4: the file ends inside this sample")),
        "{:?}",
        warnings(&imp)
    );

    let unclosed = format!("{HEAD}<httpSample t=\"5\" ts=\"1\" s=\"true\" lb=\"a\"/>\n");
    let imp = import_bytes("open.jtl", unclosed.as_bytes()).unwrap();
    assert!(warnings(&imp).iter().any(|w| w.contains("without </testResults>")), "{:?}", warnings(&imp));

    let broken = format!("{HEAD}<httpSample t=\"5\" ts=\"1\" s=\"true\" lb=\"a\"/>\n<httpSample t=\"6\" lb=\"b\">\n</wrong>\n<httpSample t=\"7\" lb=\"c\"/>");
    let imp = import_bytes("broken.jtl", broken.as_bytes()).unwrap();
    let run = &imp.bundle.runs[0];
    assert_eq!((txn(run, "a").samples, txn(run, "b").samples, run.transactions.len()), (Some(1), Some(1), 2));
    let w = warnings(&imp);
    assert!(w.iter().any(|w| w.starts_with("line 5: the XML cannot be read past here")), "{w:?}");
    assert!(
        w.iter().any(|w| w.starts_with("line 4: the error cuts this sample off; it is counted from its attributes")),
        "{w:?}"
    );

    let garbled = format!("{HEAD}<httpSample t=\"6\" lb=\"a\" <<x/>\n</testResults>");
    let imp = import_bytes("garbled.jtl", garbled.as_bytes()).unwrap();
    assert!(
        warnings(&imp).iter().any(|w| w.starts_with("line 3: some attributes of this sample cannot be read")),
        "{:?}",
        warnings(&imp)
    );

    let err = import_bytes("bad.jtl", format!("{HEAD}<httpSample t=\"5\" <<").as_bytes()).unwrap_err();
    assert_eq!((err.kind, err.line), (LoadErrorKind::Syntax, Some(3)));
    let err = import_bytes("x.jtl", b"<?xml version=\"1.0\"?>\n<other><testResults/></other>").unwrap_err();
    assert!(err.message.contains("root element is <other>"), "{err}");
}

#[test]
fn bad_values_and_undecodable_bytes_warn_with_their_line() {
    let mut xml = format!("{HEAD}<httpSample t=\"abc\" ts=\"1\" s=\"true\" lb=\"a\"/>\n<httpSample t=\"3\" ts=\"2\" s=\"maybe\" lb=\"bad ").into_bytes();
    xml.extend_from_slice(b"\xff label\"/>\n</testResults>\n");
    let imp = import_bytes("w.jtl", &xml).unwrap();
    let w = warnings(&imp);
    assert!(w.iter().any(|w| w.starts_with("line 3: elapsed time \"abc\"")), "{w:?}");
    assert!(w.iter().any(|w| w.starts_with("line 4: success \"maybe\"")), "{w:?}");
    assert!(
        w.iter().any(|w| w.starts_with("line 4: label \"bad \u{FFFD} label\" has bytes that are not valid text")),
        "{w:?}"
    );
    assert_eq!(imp.bundle.runs[0].transactions.len(), 1);
}

#[test]
fn skip_text_stops_at_the_next_markup() {
    let mut r = std::io::BufReader::with_capacity(4, &b"0123456789<rest"[..]);
    skip_text(&mut r).unwrap();
    let mut rest = String::new();
    r.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "<rest");
}

/// An assertion that failed on a 200 is listed by its failure message (the first failing one),
/// as in the CSV; a passing assertion's empty message is not taken.
#[test]
fn assertion_failure_messages_are_the_cause() {
    let assertion = |failure: bool, msg: &str| {
        format!("<assertionResult><name>A</name><failure>{failure}</failure><error>false</error><failureMessage>{msg}</failureMessage></assertionResult>")
    };
    let xml = format!(
        "{HEAD}<httpSample t=\"10\" ts=\"1000\" s=\"false\" lb=\"login\" rc=\"200\" rm=\"OK\">{}{}{}<responseData>x</responseData></httpSample>\n\
         <httpSample t=\"10\" ts=\"3500\" s=\"false\" lb=\"login\" rc=\"500\" rm=\"Oops\">{}</httpSample>\n\
         <httpSample t=\"10\" ts=\"2000\" s=\"false\" lb=\"login\" rc=\"200\" rm=\"OK\"/>\n</testResults>\n",
        assertion(false, ""),
        assertion(true, "Test failed: text expected to contain /order 4711/"),
        assertion(true, "second"),
        assertion(true, "ignored: 500 is the cause"),
    );
    let run = &import_bytes("r.jtl", xml.as_bytes()).unwrap().bundle.runs[0];
    let got: Vec<(String, Option<f64>)> = run.errors.iter().map(|e| (e.key(), e.first_s)).collect();
    let want = [
        ("login: 200/OK", 1.0),
        ("login: 200/Test failed: text expected to contain /order {n}/", 0.0),
        ("login: 500/Oops", 2.5),
    ];
    assert_eq!(got, want.map(|(k, t)| (k.to_string(), Some(t))));
}
