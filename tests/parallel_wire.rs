//! What ingest workers hand each other while reading one file in byte ranges (`import::common::parallel`):
//! the plan and each range's partial result, in borsh, come back as they left, floats bit for bit.

use runlens::import::common::parallel::{decode_part, encode_part, range_layout, read_range, MemSource, Plan};

fn jtl() -> Vec<u8> {
    let mut s = String::from("timeStamp,elapsed,label,responseCode,responseMessage,success,bytes\n");
    for i in 0..500u64 {
        let label = if i % 5 == 0 { "\"quoted, with\nbreak\"".to_string() } else { format!("L{}", i % 7) };
        s.push_str(&format!("{},{},{label},{},OK,{},{}\n", 1_000 + i, (i * 13) % 997, 200 + i % 3, i % 11 != 0, i));
    }
    s.into_bytes()
}

/// The plan: as the first worker sends it to the others.
fn plan(bytes: &[u8]) -> Plan {
    // The layout of a file big enough to split (only its size decides that, not its bytes).
    let layout =
        range_layout("x.jtl", bytes, runlens::import::common::parallel::MIN_PARALLEL_BYTES).expect("a JMeter CSV");
    Plan { layout, ranges: vec![(0, bytes.len() as u64 / 2), (bytes.len() as u64 / 2, bytes.len() as u64)] }
}

#[test]
fn a_plan_round_trips() {
    let plan = plan(&jtl());
    let back: Plan = borsh::from_slice(&borsh::to_vec(&plan).unwrap()).unwrap();
    assert_eq!(back, plan);
}

#[test]
fn a_partial_result_round_trips_with_its_floats_bit_for_bit() {
    let bytes = jtl();
    let src = MemSource(bytes.clone());
    let plan = plan(&bytes);
    let mut part = read_range("x.jtl", &src, &plan, 1, &mut |_| {}).unwrap();
    assert!(part.records > 0 && !part.agg.labels.is_empty() && !part.causes.is_empty());
    // Values with fractions (as k6 and Gatling give) take the float paths: bit patterns as keys and a
    // compensated float sum, whose last bits a lossy encoding would change.
    let floats = [0.1, 0.2, 1.0 / 3.0, 2.5e-300, 123_456.789, f64::MIN_POSITIVE];
    for v in floats {
        part.agg.labels[0].elapsed.add_f64(v);
    }
    part.agg.labels[1].first_start_ms = Some(-5);
    let encoded = encode_part(&part);
    assert_eq!(encoded.capacity(), encoded.len(), "a part is allocated once, at its size");
    let back = decode_part(&encoded).unwrap();
    // The same bytes again: every field, each float's bits included, came back (maps are written
    // in key order, so the encoding does not depend on a map's insertion history).
    assert_eq!(encode_part(&back), encoded);
    assert_eq!((back.records, back.lines, back.start, back.stop), (part.records, part.lines, part.start, part.stop));
    assert_eq!(back.warnings, part.warnings);
    assert_eq!(back.causes.causes, part.causes.causes);
    let (a, b) = (&part.agg.labels[0].elapsed, &back.agg.labels[0].elapsed);
    let bits = |s: Vec<(f64, u64)>| s.into_iter().map(|(v, c)| (v.to_bits(), c)).collect::<Vec<_>>();
    assert_eq!(bits(b.sorted()), bits(a.sorted()));
    let mean = |v: &runlens::import::common::samples::Values| v.summary(&[50.0]).map(|s| s.mean.to_bits());
    assert_eq!(mean(b), mean(a));
    assert!(decode_part(&encoded[..encoded.len() - 1]).is_err(), "a cut partial result is refused");
}
