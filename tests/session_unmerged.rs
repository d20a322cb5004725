#![cfg(not(target_arch = "wasm32"))]
//! What the page shows as soon as a file is read (`Session::unmerged`) is the bundle the writer
//! worker then makes (`Session::bundle`, the merging code), on every corpus file alone, on files
//! dropped one after the other, and after the import panel's edits; where a run merges files there
//! is nothing to show early.

use runlens::assemble::session::Session;
use runlens::import::import_bytes;

/// Every corpus file that imports, as (name, what it was read as, records, bundle).
fn corpus() -> Vec<(String, String, u64, runlens::bundle::Bundle)> {
    support::corpus::files(support::corpus::FOLDERS)
        .into_iter()
        .filter_map(|(name, path)| {
            let imp = import_bytes(&name, &std::fs::read(&path).ok()?).ok()?;
            Some((name, imp.format.title().to_string(), imp.records, imp.bundle))
        })
        .collect()
}

/// `unmerged` equals `bundle`'s bundle with no warnings, or is `None`; which one it was.
fn check(what: &str, s: &Session) -> bool {
    let (want, warnings) = s.bundle().expect("a session of files makes a bundle");
    match s.unmerged() {
        Some(shown) => {
            assert!(warnings.is_empty(), "{what}: shown early, but the merge warns: {warnings:?}");
            assert!(shown == want, "{what}: shown early\n{shown:#?}\nbut the writer makes\n{want:#?}");
            true
        }
        None => false,
    }
}

#[test]
fn each_corpus_file_alone_is_shown_as_the_writer_makes_it() {
    let files = corpus();
    let mut shown = 0;
    for (name, format, records, bundle) in &files {
        let mut s = Session::default();
        s.add(1, name, format, *records, bundle.clone());
        let single = bundle.runs.len() == 1;
        assert_eq!(check(name, &s), single, "{name}: shown early exactly when it holds one run");
        shown += usize::from(single);
    }
    assert!(shown >= 40, "only {shown} of {} corpus files were shown early", files.len());
}

#[test]
fn files_dropped_one_after_another_and_edited_are_shown_as_the_writer_makes_them() {
    let files: Vec<_> = corpus().into_iter().filter(|f| f.3.runs.len() == 1).collect();
    let mut s = Session::default();
    for (batch, (name, format, records, bundle)) in files.iter().enumerate() {
        s.add(batch as u32 + 1, name, format, *records, bundle.clone());
    }
    assert_eq!(s.runs.len(), files.len(), "one run per drop");
    assert!(check("every file, one drop each", &s), "nothing was shown early");
    s.rename(1, "Poppy <b>run</b>");
    s.set_dimension(1, "release", "Poppy");
    s.set_dimension(0, "users", "");
    assert!(check("renamed and given dimensions", &s));
    s.remove_file(0);
    assert!(check("a file removed", &s));
    // Two files in one run merge: the writer's alone.
    s.move_file(1, Some(2)).unwrap();
    assert!(!check("two files in one run", &s), "a merged run was shown before the writer made it");
    s.move_file(1, None).unwrap();
    assert!(check("moved out again", &s));
}
