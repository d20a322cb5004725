//! The command line in the order it was typed: files, `--run`, `--label`, `--dim` and `--format`
//! sorted by their position (clap's `indices_of`), then grouped: files before any `--run` keep
//! their runs, each `--run ID` collects the files after it.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::ArgMatches;
use runlens::assemble::group::RunSpec;
use runlens::import::{formats, Format};
use std::path::PathBuf;

/// One argument whose place matters.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    File(PathBuf),
    Run(String),
    Label(String),
    Dim(String, String),
    Format(Option<Format>),
}

/// A file to import and the format it is forced to (`None`: detected).
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    pub path: PathBuf,
    pub format: Option<Format>,
}

/// Files that form one run (`run` is set), or files that keep their runs.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedGroup {
    pub run: Option<RunSpec>,
    pub inputs: Vec<Input>,
}

/// `KEY=VALUE` of `--dim`.
pub fn parse_dim(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err("expected KEY=VALUE, e.g. release=Poppy".into()),
    }
}

/// `FILE=SECONDS` of `--clock-offset`: the file and the offset in milliseconds (SECONDS may be
/// signed and have a fraction; at most about 300 years either way).
pub fn parse_offset(s: &str) -> Result<(PathBuf, i64), String> {
    let bad = || format!("expected FILE=SECONDS, e.g. host-cpu.json=-3600, not {s:?}");
    let (file, secs) = s.rsplit_once('=').ok_or_else(bad)?;
    let secs: f64 = secs.trim().parse().map_err(|_| bad())?;
    let ms = (secs * 1000.0).round();
    if file.is_empty() || !ms.is_finite() || ms.abs() > 1e13 {
        return Err(bad());
    }
    Ok((PathBuf::from(file), ms as i64))
}

/// The slugs `--format` takes, each with the format's name for `--help`.
pub fn format_values() -> PossibleValuesParser {
    let auto = PossibleValue::new("auto");
    let formats = formats::listed().map(|(slug, _)| PossibleValue::new(slug));
    PossibleValuesParser::new(std::iter::once(auto).chain(formats))
}

/// The long help of `--format`: every slug with the format's name.
pub fn format_help() -> String {
    let mut s =
        String::from("Read the files after it as this format instead of detecting it; 'auto' detects again. Formats:");
    for (slug, title) in formats::listed() {
        s.push_str(&format!("\n  {slug:<24}{title}"));
    }
    s
}

/// The positional arguments of `import`, in the order they were typed.
pub fn items(m: &ArgMatches) -> Vec<Item> {
    let mut out: Vec<(usize, Item)> = Vec::new();
    let mut take = |id: &str, make: &dyn Fn(&ArgMatches, usize) -> Option<Item>| {
        if let Some(indices) = m.indices_of(id) {
            out.extend(indices.enumerate().filter_map(|(i, at)| make(m, i).map(|item| (at, item))));
        }
    };
    take("files", &|m, i| m.get_many::<PathBuf>("files")?.nth(i).cloned().map(Item::File));
    take("runs", &|m, i| m.get_many::<String>("runs")?.nth(i).cloned().map(Item::Run));
    take("labels", &|m, i| m.get_many::<String>("labels")?.nth(i).cloned().map(Item::Label));
    take("dims", &|m, i| m.get_many::<(String, String)>("dims")?.nth(i).cloned().map(|(k, v)| Item::Dim(k, v)));
    take("formats", &|m, i| m.get_many::<String>("formats")?.nth(i).map(|s| Item::Format(Format::from_slug(s))));
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, item)| item).collect()
}

/// The groups the items describe, or a usage error in words.
pub fn plan(items: Vec<Item>) -> Result<Vec<PlannedGroup>, String> {
    let mut groups = vec![PlannedGroup { run: None, inputs: vec![] }];
    let mut format = None;
    for item in items {
        let Some(current) = groups.last_mut() else { continue };
        match item {
            Item::File(path) => current.inputs.push(Input { path, format }),
            Item::Format(f) => format = f,
            Item::Run(id) => {
                if id.trim().is_empty() {
                    return Err("--run needs an id".into());
                }
                if groups.iter().any(|g| g.run.as_ref().is_some_and(|r| r.id == id)) {
                    return Err(format!("--run {id} is given twice; each run needs its own id"));
                }
                groups.push(PlannedGroup { run: Some(RunSpec { id, ..Default::default() }), inputs: vec![] });
            }
            Item::Label(text) => {
                let Some(spec) = current.run.as_mut() else {
                    return Err(format!("--label {text:?} must follow the --run it names"));
                };
                if let Some(old) = spec.label.replace(text) {
                    return Err(format!("--run {} has two labels ({old:?} and another)", spec.id));
                }
            }
            Item::Dim(key, value) => {
                let Some(spec) = current.run.as_mut() else {
                    return Err(format!("--dim {key}={value} must follow the --run it describes"));
                };
                if let Some(old) = spec.dimensions.insert(key.clone(), value) {
                    return Err(format!("--run {} has two values for {key} ({old:?} and another)", spec.id));
                }
            }
        }
    }
    if let Some(empty) = groups.iter().find_map(|g| g.run.as_ref().filter(|_| g.inputs.is_empty())) {
        return Err(format!("--run {} has no files after it; write the files of a run after its --run", empty.id));
    }
    groups.retain(|g| !g.inputs.is_empty());
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(p: &str) -> Item {
        Item::File(p.into())
    }

    #[test]
    fn files_after_a_run_form_it_and_formats_carry_on() {
        let items = vec![
            file("history.csv"),
            Item::Format(Some(Format::DockerStats)),
            Item::Run("a".into()),
            Item::Label("Test A".into()),
            Item::Dim("release".into(), "Poppy".into()),
            file("a.jtl"),
            file("b.txt"),
            Item::Run("b".into()),
            Item::Format(None),
            file("c.jtl"),
        ];
        let groups = plan(items).unwrap();
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[0].run, None);
        assert_eq!(groups[0].inputs, vec![Input { path: "history.csv".into(), format: None }]);
        let a = groups[1].run.as_ref().unwrap();
        assert_eq!((a.id.as_str(), a.label.as_deref()), ("a", Some("Test A")));
        assert_eq!(a.dimensions.get("release").map(String::as_str), Some("Poppy"));
        let formats: Vec<Option<Format>> = groups[1].inputs.iter().map(|i| i.format).collect();
        assert_eq!(formats, vec![Some(Format::DockerStats); 2]);
        assert_eq!(groups[2].inputs, vec![Input { path: "c.jtl".into(), format: None }]);
    }

    #[test]
    fn misplaced_options_are_usage_errors() {
        let e = |items: Vec<Item>| plan(items).unwrap_err();
        assert_eq!(e(vec![Item::Label("x".into()), file("a")]), "--label \"x\" must follow the --run it names");
        assert_eq!(
            e(vec![file("a"), Item::Run("n".into())]),
            "--run n has no files after it; write the files of a run after its --run"
        );
        assert_eq!(
            e(vec![Item::Run("n".into()), file("a"), Item::Run("n".into()), file("b")]),
            "--run n is given twice; each run needs its own id"
        );
        let twice = vec![
            Item::Run("n".into()),
            Item::Dim("k".into(), "1".into()),
            Item::Dim("k".into(), "2".into()),
            file("a"),
        ];
        assert_eq!(e(twice), "--run n has two values for k (\"1\" and another)");
        assert_eq!(parse_dim("release=Poppy"), Ok(("release".into(), "Poppy".into())));
        assert!(parse_dim("=x").is_err() && parse_dim("release").is_err());
    }

    #[test]
    fn clock_offsets_are_file_equals_signed_seconds() {
        assert_eq!(parse_offset("cpu.json=-3600"), Ok((PathBuf::from("cpu.json"), -3_600_000)));
        assert_eq!(parse_offset("a=b.csv=+1.5"), Ok((PathBuf::from("a=b.csv"), 1_500)), "the last = splits");
        for bad in ["cpu.json", "=5", "cpu.json=", "cpu.json=ten", "cpu.json=1e300", "cpu.json=NaN"] {
            assert!(parse_offset(bad).is_err(), "{bad}");
        }
    }
}
