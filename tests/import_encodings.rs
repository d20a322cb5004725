#![cfg(not(target_arch = "wasm32"))]
//! Text encodings of imported JMeter files: UTF-8 with and without a BOM, UTF-16 with a BOM,
//! legacy encodings by declaration (XML) or by detection (GBK written by JMeter on a Chinese
//! Windows). Labels are never mangled silently: an undecodable byte shows as U+FFFD and a warning
//! names its line, and a guessed encoding is named in a warning.
//!
//! The fixtures in tests/fixtures/import/encodings/ are made from the UTF-8 texts below with encoding_rs;
//! this test checks they still are (regenerate with `UPDATE_FIXTURES=1 cargo test --test
//! import_encodings`), then imports each and checks the labels.

use encoding_rs::Encoding;
use runlens::import::{import_bytes, Format};
use std::path::Path;

enum Bytes {
    /// A legacy encoding (no BOM).
    Legacy(&'static Encoding),
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    /// UTF-8 whose U+FFFD characters are replaced by the byte 0xFF (not UTF-8).
    Utf8BrokenByte,
}

struct Fixture {
    file: &'static str,
    bytes: Bytes,
    text: &'static str,
    format: Format,
    labels: &'static [&'static str],
    /// A warning that must be present (`place: message` starts with it), if any.
    warning: Option<&'static str>,
}

const JTL: &str = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

fn fixtures() -> Vec<Fixture> {
    let gbk_rows: &'static str = Box::leak(
        format!(
            "{JTL}\n1700000000000,120,登录页面,200,OK,线程组 1-1,text,true,,512,100,1,1,http://x/login,100,0,3\n\
             1700000000200,340,搜索结果,200,OK,线程组 1-1,text,true,,2048,120,1,1,http://x/search,300,0,0\n\
             1700000000600,95,订单列表,500,服务器错误,线程组 1-1,text,false,断言失败,180,90,1,1,http://x/orders,90,0,0\n\
             1700000000800,110,登录页面,200,OK,线程组 1-1,text,true,,512,100,1,1,http://x/login,100,0,0\n"
        )
        .into_boxed_str(),
    );
    let utf16_rows: &'static str = Box::leak(
        format!("{JTL}\n1700000000000,120,登录页面,200,OK,TG 1-1,text,true,,512,100,1,1,http://x/,100,0,3\n1700000000300,80,Вход в систему,200,OK,TG 1-1,text,true,,512,100,1,1,http://x/,70,0,0\n")
            .into_boxed_str(),
    );
    // UTF-8 (its Cyrillic label says so) with one byte that is not.
    let broken_rows: &'static str = Box::leak(
        format!("{JTL}\n1700000000000,120,Вход в систему,200,OK,TG 1-1,text,true,,1,1,1,1,u,1,0,0\n1700000000300,80,bro\u{FFFD}ken,200,OK,TG 1-1,text,true,,1,1,1,1,u,1,0,0\n")
            .into_boxed_str(),
    );
    // ASCII with one high byte: nothing says UTF-8, so the byte is read as windows-1252 and the
    // guess is named in a warning.
    let high_byte_rows: &'static str = Box::leak(
        format!("{JTL}\n1700000000000,120,fine,200,OK,TG 1-1,text,true,,1,1,1,1,u,1,0,0\n1700000000300,80,bro\u{FFFD}ken,200,OK,TG 1-1,text,true,,1,1,1,1,u,1,0,0\n")
            .into_boxed_str(),
    );
    vec![
        Fixture {
            file: "gbk-results.jtl",
            bytes: Bytes::Legacy(encoding_rs::GBK),
            text: gbk_rows,
            format: Format::JmeterCsv,
            labels: &["登录页面", "搜索结果", "订单列表"],
            warning: Some("encoding: the file is not UTF-8 and does not say its encoding; its text was read as GBK"),
        },
        Fixture {
            file: "gbk-statistics.json",
            bytes: Bytes::Legacy(encoding_rs::GBK),
            text: STATS_GBK,
            format: Format::JmeterStatistics,
            labels: &["登录页面", "搜索结果页面"],
            warning: Some("encoding: the file is not UTF-8 and does not say its encoding; its text was read as GBK"),
        },
        Fixture { file: "utf16le-results.jtl", bytes: Bytes::Utf16Le, text: utf16_rows, format: Format::JmeterCsv, labels: &["登录页面", "Вход в систему"], warning: None },
        Fixture {
            file: "utf16be-aggregate.csv",
            bytes: Bytes::Utf16Be,
            text: "Label,# Samples,Average,Median,90% Line,95% Line,99% Line,Min,Max,Error %,Throughput,Received KB/sec,Sent KB/sec\n登录页面,10,12,10,20,25,40,3,90,0.00%,5.2,1.0,0.5\nВход,5,8,7,9,10,11,1,30,20.00%,2.6,1.0,0.5\n总体,15,10,9,18,24,39,1,90,6.67%,7.8,2.0,1.0\n",
            format: Format::JmeterSummary,
            labels: &["登录页面", "Вход"],
            warning: None,
        },
        Fixture {
            file: "windows-1255-declared.jtl",
            bytes: Bytes::Legacy(encoding_rs::WINDOWS_1255),
            text: "<?xml version=\"1.0\" encoding=\"windows-1255\"?>\n<testResults version=\"1.2\">\n<httpSample t=\"120\" ts=\"1700000000000\" s=\"true\" lb=\"כניסה\" rc=\"200\" rm=\"OK\" tn=\"קבוצה 1-1\"/>\n<httpSample t=\"80\" ts=\"1700000000300\" s=\"false\" lb=\"חיפוש\" rc=\"500\" rm=\"שגיאה\" tn=\"קבוצה 1-1\"/>\n</testResults>\n",
            format: Format::JmeterXml,
            labels: &["כניסה", "חיפוש"],
            warning: None,
        },
        Fixture {
            file: "utf16le-declared.jtl",
            bytes: Bytes::Utf16Le,
            text: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<testResults version=\"1.2\">\n<sample t=\"7\" ts=\"1700000000000\" s=\"true\" lb=\"登录页面\" rc=\"200\" rm=\"OK\"/>\n</testResults>\n",
            format: Format::JmeterXml,
            labels: &["登录页面"],
            warning: None,
        },
        Fixture {
            file: "utf8-bom-statistics.json",
            bytes: Bytes::Utf8Bom,
            text: "{\n  \"Ünïcode ✓\" : { \"transaction\" : \"Ünïcode ✓\", \"sampleCount\" : 2, \"errorCount\" : 0, \"meanResTime\" : 1.5E1, \"minResTime\" : 10.0, \"maxResTime\" : 20.0, \"pct1ResTime\" : 20.0, \"pct2ResTime\" : 20.0, \"pct3ResTime\" : 20.0, \"throughput\" : 1.0E-1 },\n  \"Total\" : { \"sampleCount\" : 2, \"errorCount\" : 0, \"meanResTime\" : 15.0 }\n}\n",
            format: Format::JmeterStatistics,
            labels: &["Ünïcode ✓"],
            warning: None,
        },
        Fixture {
            file: "broken-byte-results.jtl",
            bytes: Bytes::Utf8BrokenByte,
            text: broken_rows,
            format: Format::JmeterCsv,
            labels: &["Вход в систему", "bro\u{FFFD}ken"],
            warning: Some("line 3: label \"bro\u{FFFD}ken\" has bytes that are not valid text"),
        },
        Fixture {
            file: "one-high-byte-results.jtl",
            bytes: Bytes::Utf8BrokenByte,
            text: high_byte_rows,
            format: Format::JmeterCsv,
            labels: &["fine", "bro\u{FF}ken"],
            warning: Some("encoding: the file is not UTF-8 and does not say its encoding; its text was read as windows-1252"),
        },
        Fixture {
            file: "broken-byte-statistics.json",
            bytes: Bytes::Utf8BrokenByte,
            text: "{\n  \"Вход в систему\" : { \"sampleCount\" : 1, \"meanResTime\" : 5.0, \"pct1ResTime\" : 5.0 },\n  \"bro\u{FFFD}ken\" : { \"sampleCount\" : 1, \"meanResTime\" : 6.0, \"pct1ResTime\" : 6.0 }\n}\n",
            format: Format::JmeterStatistics,
            labels: &["Вход в систему", "bro\u{FFFD}ken"],
            warning: Some("line 3: bytes that are not valid UTF-8 were replaced by \u{FFFD}"),
        },
    ]
}

const STATS_GBK: &str = r#"{
  "登录页面" : {
    "transaction" : "登录页面", "sampleCount" : 4, "errorCount" : 1, "errorPct" : 25.0,
    "meanResTime" : 150.25, "medianResTime" : 120.0, "minResTime" : 95.0, "maxResTime" : 340.0,
    "pct1ResTime" : 340.0, "pct2ResTime" : 340.0, "pct3ResTime" : 340.0,
    "throughput" : 4.878048780487805, "receivedKBytesPerSec" : 1.5, "sentKBytesPerSec" : 0.5
  },
  "Total" : {
    "transaction" : "Total", "sampleCount" : 6, "errorCount" : 1, "errorPct" : 16.666666,
    "meanResTime" : 140.0, "medianResTime" : 115.0, "minResTime" : 80.0, "maxResTime" : 340.0,
    "pct1ResTime" : 340.0, "pct2ResTime" : 340.0, "pct3ResTime" : 340.0,
    "throughput" : 6.0, "receivedKBytesPerSec" : 2.0, "sentKBytesPerSec" : 0.7
  },
  "搜索结果页面" : {
    "transaction" : "搜索结果页面", "sampleCount" : 2, "errorCount" : 0, "errorPct" : 0.0,
    "meanResTime" : 100.0, "medianResTime" : 80.0, "minResTime" : 80.0, "maxResTime" : 120.0,
    "pct1ResTime" : 120.0, "pct2ResTime" : 120.0, "pct3ResTime" : 120.0,
    "throughput" : 1.2E0, "receivedKBytesPerSec" : 0.5, "sentKBytesPerSec" : 0.2
  }
}
"#;

fn encode(b: &Bytes, text: &str) -> Vec<u8> {
    match b {
        Bytes::Legacy(enc) => {
            let (bytes, _, unmappable) = enc.encode(text);
            assert!(!unmappable, "{} cannot hold the fixture text", enc.name());
            bytes.into_owned()
        }
        Bytes::Utf8Bom => [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
        Bytes::Utf16Le => [vec![0xFF, 0xFE], text.encode_utf16().flat_map(u16::to_le_bytes).collect()].concat(),
        Bytes::Utf16Be => [vec![0xFE, 0xFF], text.encode_utf16().flat_map(u16::to_be_bytes).collect()].concat(),
        Bytes::Utf8BrokenByte => {
            text.replace('\u{FFFD}', "\u{1}").into_bytes().into_iter().map(|c| if c == 1 { 0xFF } else { c }).collect()
        }
    }
}

#[test]
fn every_encoding_fixture_decodes_its_labels() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/encodings");
    let update = std::env::var_os("UPDATE_FIXTURES").is_some();
    for f in fixtures() {
        let bytes = encode(&f.bytes, f.text);
        let path = dir.join(f.file);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_FIXTURES=1)", f.file));
        assert_eq!(on_disk, bytes, "{} differs from its source text (run with UPDATE_FIXTURES=1)", f.file);
        // Detection by content alone: the names say nothing specific.
        let imp = import_bytes(f.file, &on_disk).unwrap_or_else(|e| panic!("{}: {e}", f.file));
        assert_eq!(imp.format, f.format, "{}", f.file);
        let names: Vec<&str> = imp.bundle.runs[0].transactions.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, f.labels, "{}", f.file);
        let warnings: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
        match f.warning {
            Some(w) => assert!(warnings.iter().any(|x| x.starts_with(w)), "{}: {warnings:?}", f.file),
            None => assert!(warnings.is_empty(), "{}: {warnings:?}", f.file),
        }
    }
}

/// A fixture's bytes from its source text (the other test checks the file on disk equals them).
fn fixture(file: &str) -> Vec<u8> {
    let f = fixtures().into_iter().find(|f| f.file == file).unwrap();
    encode(&f.bytes, f.text)
}

#[test]
fn gbk_figures_survive_decoding() {
    let jtl = import_bytes("gbk-results.jtl", &fixture("gbk-results.jtl")).unwrap();
    let run = &jtl.bundle.runs[0];
    let login = run.transactions.iter().find(|t| t.name == "登录页面").unwrap();
    assert_eq!((login.samples, login.max_ms), (Some(2), Some(120.0)));
    assert_eq!(run.errors[0].key(), "订单列表: 500/服务器错误");
    let stats = import_bytes("gbk-statistics.json", &fixture("gbk-statistics.json")).unwrap();
    let run = &stats.bundle.runs[0];
    assert_eq!(run.transactions[0].samples, Some(4));
    assert_eq!(run.kpis.iter().find(|k| k.name == "Samples").map(|k| k.value), Some(6.0));
    let agg = import_bytes("utf16be-aggregate.csv", &fixture("utf16be-aggregate.csv")).unwrap();
    // 总体 is the Chinese TOTAL label: it becomes the KPIs, not a transaction.
    assert_eq!(agg.bundle.runs[0].kpis.iter().find(|k| k.name == "Samples").map(|k| k.value), Some(15.0));
}
