//! Tests of the `_cat/indices` importers: splitting, placing blank cells by column position,
//! several tables in one paste, the headerless default order, and JSON pages.

use super::*;
use crate::bundle::LoadErrorKind;
use crate::import::{import_bytes, Format, Imported};

fn imp(name: &str, text: &str) -> Imported {
    import_bytes(name, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn idx<'a>(run: &'a Run, name: &str) -> &'a IndexStats {
    run.indices.iter().find(|x| x.index == name).unwrap_or_else(|| panic!("no index {name:?} in {:?}", run.indices))
}

#[test]
fn cells_split_on_tabs_pipes_or_spaces() {
    let texts = |l: &str| cells(l).1.into_iter().map(|c| c.text).collect::<Vec<_>>();
    assert_eq!(texts("a\t\tb "), vec!["a", "", "b"]);
    assert_eq!(texts("| a |  | b |"), vec!["a", "", "b"]);
    assert_eq!(texts("||h||i||"), vec!["h", "i"]);
    let (sep, c) = cells("  ab  c");
    assert_eq!((sep, c[0].span, c[1].span), (Sep::Spaces, (2, 4), (6, 7)));
}

#[test]
fn blank_cells_are_placed_under_their_header() {
    let h = header_of("health index   docs.count store.size").unwrap();
    // A red index: docs.count blank, store.size right-aligned under its name.
    let row = "red    broken               12b";
    let (sep, c) = cells(row);
    let placed = place(&h, sep, &c).unwrap();
    assert_eq!(placed, vec![Some("red"), Some("broken"), None, Some("12b")]);
    // Collapsed whitespace cannot say which column is blank.
    let (sep, c) = cells("red broken 12b");
    assert!(place(&h, sep, &c).is_err());
}

#[test]
fn prose_is_not_a_header_and_aliases_are() {
    assert!(header_of("The index was red and the status was open, said the health check").is_none());
    assert!(header_of("i dc ss").is_some());
    assert!(header_of("health status uuid").is_none(), "no index column");
}

#[test]
fn a_red_index_in_an_aligned_table() {
    let text = "health status index  uuid                   pri rep docs.count store.size\n\
green  open   good   vCgkqlfuRYyWExbd8o0BoQ   4   2   10733729    122.9gb\n\
red    open   broken Zx3u0AOJQkmqR0a2m0n5Jg   5   1                      \n";
    let i = imp("pasted text", text);
    assert_eq!(i.format, Format::CatIndices);
    let run = &i.bundle.runs[0];
    let b = idx(run, "broken");
    assert_eq!(
        (b.health.as_deref(), b.pri, b.rep, b.docs_count, b.store_size),
        (Some("red"), Some(5), Some(1), None, None)
    );
    let g = idx(run, "good");
    assert_eq!((g.docs_count, g.store_size), (Some(10_733_729), Some(ByteSize(131_962_870_170))));
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
}

#[test]
fn several_tables_become_runs_labelled_by_the_line_above() {
    let text = "Test #2\nhealth\tindex\tdocs.count\ngreen\ta\t1\n\nTest #4\nhealth\tindex\tdocs.count\ngreen\ta\t2\nsome closing remark\n";
    let i = imp("report.txt", text);
    let runs = &i.bundle.runs;
    assert_eq!(
        runs.iter().map(|r| (r.id.as_str(), r.label.as_str())).collect::<Vec<_>>(),
        vec![("report-test-2", "report: Test #2"), ("report-test-4", "report: Test #4")]
    );
    assert_eq!((idx(&runs[0], "a").docs_count, idx(&runs[1], "a").docs_count), (Some(1), Some(2)));
    assert_eq!(i.warnings.len(), 1, "one summary of the text after the last table: {:?}", i.warnings);
}

#[test]
fn without_a_header_rows_in_the_default_order_are_read_with_a_warning() {
    let text = "green open a XE9S-Me_StyzkP3XQqPqBA 4 0 556239 0 233.1mb 233.1mb\nred open b 9QX5G1CkSMWTIaD-U2Re2g 4 0\nclose c T9QYzSdMS-GFcO4skPIQiw\nyellow open d 4 0 1 0 1kb 1kb extra\n";
    let i = imp("pasted text", text);
    let run = &i.bundle.runs[0];
    assert_eq!(run.indices.iter().map(|x| x.index.as_str()).collect::<Vec<_>>(), vec!["a", "b", "c"]);
    assert_eq!((idx(run, "a").docs_count, idx(run, "a").pri_store_size), (Some(556_239), Some(ByteSize(244_423_066))));
    assert_eq!((idx(run, "b").pri, idx(run, "b").rep, idx(run, "b").docs_count), (Some(4), Some(0), None));
    assert_eq!((idx(run, "c").health.as_deref(), idx(run, "c").status.as_deref()), (None, Some("close")));
    assert!(i.warnings[0].message.contains("default column order"), "{:?}", i.warnings);
    assert!(i.warnings.iter().any(|w| w.path == "line 4"), "the row that fits no layout: {:?}", i.warnings);
}

#[test]
fn bad_values_are_left_out_and_prose_in_table_shape_is_not_a_row() {
    let text = "health status index docs.count store.size\ngreen open a 99999999999999999999999 12parsecs\n\
green open b 7 1kb\n8 instances located in Virginia\n";
    let i = imp("t.txt", text);
    let run = &i.bundle.runs[0];
    assert_eq!(run.indices.len(), 1, "two malformed counts/sizes make a line not a row: {:?}", run.indices);
    assert_eq!(idx(run, "b").store_size, Some(ByteSize(1024)));
    let text = "health status index docs.count store.size\ngreen open a 99999999999999999999999 1kb\n";
    let i = imp("t.txt", text);
    assert_eq!((idx(&i.bundle.runs[0], "a").docs_count, i.warnings.len()), (None, 1));
}

#[test]
fn json_rows_pages_and_placeholders() {
    let text = "[{\"index\":\"a\",\"health\":\"green\",\"docs.count\":\"5\",\"store.size\":\"1kb\",\"pri\":\"-\"},{\"health\":\"red\"},7]";
    let i = imp("pasted text", text);
    assert_eq!(i.format, Format::CatIndicesJson);
    let a = idx(&i.bundle.runs[0], "a");
    assert_eq!((a.docs_count, a.store_size, a.pri), (Some(5), Some(ByteSize(1024)), None));
    assert_eq!(i.warnings.len(), 2, "a row without a name and a number: {:?}", i.warnings);
    let cut = "{\"next_token\":\"x\",\"indices\":[{\"index\":\"a\",\"health\":\"green\"}]}\n{\"next_token\":null,\"indices\":[{\"ind";
    let i = imp("list.json", cut);
    assert_eq!(i.bundle.runs[0].indices.len(), 1);
    assert!(i.warnings.iter().any(|w| w.message.contains("cut off")), "{:?}", i.warnings);
    assert!(i.warnings.iter().any(|w| w.path == "next_token"), "the kept page points at more: {:?}", i.warnings);
    let e = import_bytes("x.json", b"[{\"index\": \"a\", \"health\": ").unwrap_err();
    assert_eq!((e.kind, e.line.is_some()), (LoadErrorKind::Syntax, true));
}

#[test]
fn a_paste_with_no_rows_is_refused() {
    let e = import_bytes("pasted text", b"health status index uuid\n").unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Empty);
    assert!(e.message.contains("no _cat/indices rows"), "{e}");
}
