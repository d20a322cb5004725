//! Configuration diff: module settings and infrastructure of several runs side by side, with the
//! rows whose values differ marked.

use crate::bundle::Run;

#[derive(Debug, Clone, PartialEq)]
pub struct ConfigRow {
    /// "Modules" or "Infrastructure".
    pub group: &'static str,
    /// Module or component name.
    pub item: String,
    /// Setting name, e.g. "CPU units".
    pub setting: String,
    /// One value per run (None where the run does not state it).
    pub values: Vec<Option<String>>,
    /// True when at least two runs state different values.
    pub changed: bool,
}

fn module_settings(run: &Run, module: &str) -> Vec<(String, String)> {
    let Some(m) = run.modules.iter().find(|m| m.module == module) else { return vec![] };
    let mut out: Vec<(String, String)> = [
        ("Version", m.version.clone()),
        ("Task definition", m.task_definition.map(|v| v.to_string())),
        ("Running tasks", m.running_tasks.map(|v| v.to_string())),
        ("CPU units", m.cpu_units.map(|v| v.to_string())),
        ("Memory (MiB)", m.memory_mib.map(|v| v.to_string())),
        ("Memory reservation (MiB)", m.memory_reservation_mib.map(|v| v.to_string())),
        ("MaxMetaspaceSize (MiB)", m.max_metaspace_mib.map(|v| v.to_string())),
        ("Xmx (MiB)", m.xmx_mib.map(|v| v.to_string())),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
    .collect();
    out.extend(m.settings.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}

fn infra_settings(run: &Run, component: &str) -> Vec<(String, String)> {
    let Some(c) = run.infrastructure.iter().find(|c| c.component == component) else { return vec![] };
    let mut out: Vec<(String, String)> = [
        ("Instance type", c.instance_type.clone()),
        ("Count", c.count.map(|v| v.to_string())),
        ("Note", c.note.clone()),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
    .collect();
    out.extend(c.settings.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}

fn push_unique(list: &mut Vec<String>, s: &str) {
    if !list.iter().any(|x| x == s) {
        list.push(s.to_string());
    }
}

fn group_rows(
    runs: &[&Run],
    group: &'static str,
    items: &[String],
    settings: fn(&Run, &str) -> Vec<(String, String)>,
) -> Vec<ConfigRow> {
    let mut rows = Vec::new();
    for item in items {
        let per_run: Vec<Vec<(String, String)>> = runs.iter().map(|r| settings(r, item)).collect();
        let mut names = Vec::new();
        for s in per_run.iter().flatten() {
            push_unique(&mut names, &s.0);
        }
        for name in names {
            let values: Vec<Option<String>> =
                per_run.iter().map(|s| s.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone())).collect();
            let mut stated = values.iter().flatten();
            let first = stated.next();
            let changed = first.is_some_and(|f| stated.any(|v| v != f));
            rows.push(ConfigRow { group, item: item.clone(), setting: name, values, changed });
        }
    }
    rows
}

/// Module and infrastructure settings of `runs`, one row per setting, one value per run.
pub fn config_diff(runs: &[&Run]) -> Vec<ConfigRow> {
    let (mut modules, mut components) = (Vec::new(), Vec::new());
    for r in runs {
        r.modules.iter().for_each(|m| push_unique(&mut modules, &m.module));
        r.infrastructure.iter().for_each(|c| push_unique(&mut components, &c.component));
    }
    let mut rows = group_rows(runs, "Modules", &modules, module_settings);
    rows.extend(group_rows(runs, "Infrastructure", &components, infra_settings));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::ModuleConfig;

    #[test]
    fn marks_changed_settings() {
        let m = |cpu, meta| ModuleConfig {
            module: "mod-search".into(),
            cpu_units: Some(cpu),
            max_metaspace_mib: Some(meta),
            xmx_mib: Some(1440),
            ..Default::default()
        };
        let a = Run { id: "a".into(), modules: vec![m(400, 1024)], ..Default::default() };
        let b = Run { id: "b".into(), modules: vec![m(2048, 512)], ..Default::default() };
        let rows = config_diff(&[&a, &b]);
        let cpu = rows.iter().find(|r| r.setting == "CPU units").unwrap();
        assert_eq!(cpu.values, vec![Some("400".to_string()), Some("2048".to_string())]);
        assert!(cpu.changed);
        assert!(!rows.iter().find(|r| r.setting.starts_with("Xmx")).unwrap().changed);
        assert!(rows.iter().find(|r| r.setting.starts_with("MaxMetaspace")).unwrap().changed);
    }
}
