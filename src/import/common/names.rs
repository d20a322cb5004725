//! Names of imported things: the file name of a path or URL, a run id and label from it, and the
//! dimensions a name suggests (`…-orchid-20u.jtl` → users=20).

/// The last path segment of a path or URL, without query or fragment.
pub fn file_name(name: &str) -> &str {
    let no_query = name.split(['?', '#']).next().unwrap_or(name);
    no_query.rsplit(['/', '\\']).find(|s| !s.is_empty()).unwrap_or(no_query)
}

/// The file name without the extensions runlens knows (`.jtl`, `.csv.gz`, `.json`, …).
pub fn file_stem(name: &str) -> &str {
    let mut stem = file_name(name);
    for _ in 0..2 {
        if let Some((s, ext)) = stem.rsplit_once('.') {
            let ext = ext.to_ascii_lowercase();
            if !s.is_empty()
                && matches!(
                    ext.as_str(),
                    "gz" | "jtl" | "csv" | "tsv" | "json" | "ndjson" | "jsonl" | "log" | "txt" | "xml" | "js"
                )
            {
                stem = s;
                continue;
            }
        }
        break;
    }
    stem
}

/// A run id from a file name: the stem, lower-cased, with anything but letters, digits, `-`, `_`
/// and `.` turned into `-` (ids go into URLs).
pub fn run_id(name: &str) -> String {
    slug(file_stem(name))
}

/// Text as an id: lower-cased, anything but letters, digits, `-`, `_` and `.` turned into `-`,
/// runs of `-` collapsed; `run` when nothing is left.
pub fn slug(text: &str) -> String {
    let mut id: String = text
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c.to_ascii_lowercase() } else { '-' })
        .collect();
    while id.contains("--") {
        id = id.replace("--", "-");
    }
    let id = id.trim_matches('-').to_string();
    if id.is_empty() {
        "run".into()
    } else {
        id
    }
}

/// Dimensions a file name suggests: a user count (`20u`, `20users`, `20-users`, `u20`), and the
/// release or platform words it carries are left to the user.
pub fn suggested_dimensions(name: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in file_stem(name).split(['-', '_', '.', ' ']) {
        let p = part.to_ascii_lowercase();
        let users = p
            .strip_suffix("users")
            .or_else(|| p.strip_suffix("user"))
            .or_else(|| p.strip_suffix("vu"))
            .or_else(|| p.strip_suffix('u'))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if let Some(n) = users {
            if !out.iter().any(|(k, _): &(String, String)| k == "users") {
                out.push(("users".into(), n.trim_start_matches('0').to_string()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_paths_and_urls() {
        assert_eq!(file_name("https://x.example/r/nightly.jtl?raw=1"), "nightly.jtl");
        assert_eq!(file_name("C:\\runs\\a.csv"), "a.csv");
        assert_eq!(file_stem("results/run-1.csv.gz"), "run-1");
        assert_eq!(file_stem("report.v2"), "report.v2");
        assert_eq!(run_id("Mod Search (Orchid) 20u.jtl"), "mod-search-orchid-20u");
        assert_eq!(run_id("???.jtl"), "run");
    }

    #[test]
    fn user_counts_from_names() {
        assert_eq!(suggested_dimensions("mod-search-orchid-20u.jtl"), vec![("users".to_string(), "20".to_string())]);
        assert_eq!(suggested_dimensions("run_8users.csv"), vec![("users".to_string(), "8".to_string())]);
        assert!(suggested_dimensions("menu.csv").is_empty());
    }
}
