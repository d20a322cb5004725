//! Label rules compiled once and matched against labels: globs (`*`, `?`) by `wildmatch`, ids
//! collapsed by a hand-written scanner (a regex engine would cost the page more than this does;
//! decision 0054).

use crate::bundle::{LabelRule, LabelRuleKind};
use std::borrow::Cow;
use wildmatch::WildMatch;

/// What numbers, UUIDs and long hexadecimal ids become.
pub const ID: &str = "{id}";
/// Hexadecimal ids this long or longer (with a digit) are ids: object ids, hashes.
const MIN_HEX_ID: usize = 12;

/// A glob that also matches its own text exactly (a label may hold `*` or `?`).
#[derive(Debug, Clone)]
struct Glob {
    text: String,
    wild: WildMatch,
}

impl Glob {
    fn new(text: &str) -> Glob {
        Glob { text: text.to_string(), wild: WildMatch::new(text) }
    }

    fn matches(&self, label: &str) -> bool {
        self.text == label || self.wild.matches(label)
    }
}

#[derive(Debug, Clone)]
enum Step {
    Ids(Option<Glob>),
    Rename(Glob, String),
    /// Consecutive `include` rules: a label stays when any matches.
    Include(Vec<Glob>),
    Exclude(Glob),
}

/// Rules ready to map labels, in order.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    steps: Vec<Step>,
}

/// Why a rule cannot be used, if it cannot.
pub fn problem(rule: &LabelRule) -> Option<&'static str> {
    match rule.kind {
        LabelRuleKind::Ids => None,
        _ if rule.pattern.is_empty() => Some("needs a pattern"),
        LabelRuleKind::Rename if rule.to.as_deref().is_none_or(str::is_empty) => Some("needs a new name (to)"),
        _ => None,
    }
}

impl Rules {
    /// The usable rules of `rules` (those without a `problem`), in order.
    pub fn new<'a>(rules: impl IntoIterator<Item = &'a LabelRule>) -> Rules {
        let mut steps: Vec<Step> = Vec::new();
        for r in rules.into_iter().filter(|r| problem(r).is_none()) {
            let glob = Glob::new(&r.pattern);
            match (r.kind, steps.last_mut()) {
                (LabelRuleKind::Ids, _) => steps.push(Step::Ids((!r.pattern.is_empty()).then_some(glob))),
                (LabelRuleKind::Rename, _) => steps.push(Step::Rename(glob, r.to.clone().unwrap_or_default())),
                (LabelRuleKind::Include, Some(Step::Include(any))) => any.push(glob),
                (LabelRuleKind::Include, _) => steps.push(Step::Include(vec![glob])),
                (LabelRuleKind::Exclude, _) => steps.push(Step::Exclude(glob)),
            }
        }
        Rules { steps }
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The label after every rule, or `None` when a rule leaves it out.
    pub fn map(&self, label: &str) -> Option<String> {
        let mut now = label.to_string();
        for step in &self.steps {
            match step {
                Step::Ids(only) => {
                    if only.as_ref().is_none_or(|g| g.matches(&now)) {
                        if let Cow::Owned(c) = collapse_ids(&now) {
                            now = c;
                        }
                    }
                }
                Step::Rename(g, to) if g.matches(&now) => now.clone_from(to),
                Step::Rename(..) => {}
                Step::Include(any) if !any.iter().any(|g| g.matches(&now)) => return None,
                Step::Include(_) => {}
                Step::Exclude(g) if g.matches(&now) => return None,
                Step::Exclude(_) => {}
            }
        }
        Some(now)
    }
}

/// `label` with every id between separators replaced by `{id}`: a run of digits, a UUID
/// (8-4-4-4-12 hexadecimal digits), a run of at least 12 hexadecimal digits with a digit in it.
/// Letters and digits together ("v2", "item42") are words, not ids.
pub fn collapse_ids(label: &str) -> Cow<'_, str> {
    let b = label.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let end = uuid_end(b, i).unwrap_or_else(|| i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric()).count());
        let token = &b[i..end];
        let hex_id = token.len() >= MIN_HEX_ID
            && token.iter().all(u8::is_ascii_hexdigit)
            && token.iter().any(u8::is_ascii_digit);
        if uuid_end(b, i).is_some() || token.iter().all(u8::is_ascii_digit) || hex_id {
            let o = out.get_or_insert_with(String::new);
            o.push_str(&label[copied..i]);
            o.push_str(ID);
            copied = end;
        }
        i = end;
    }
    match out {
        None => Cow::Borrowed(label),
        Some(mut o) => {
            o.push_str(&label[copied..]);
            Cow::Owned(o)
        }
    }
}

/// Where a UUID starting at `i` ends, when one does (and no letter or digit follows it).
fn uuid_end(b: &[u8], i: usize) -> Option<usize> {
    const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
    let mut at = i;
    for (g, len) in GROUPS.iter().enumerate() {
        if g > 0 {
            (b.get(at) == Some(&b'-')).then_some(())?;
            at += 1;
        }
        let part = b.get(at..at + len)?;
        part.iter().all(u8::is_ascii_hexdigit).then_some(())?;
        at += len;
    }
    (!b.get(at).is_some_and(u8::is_ascii_alphanumeric)).then_some(at)
}

/// A rule in words, for lists: "ids", "rename GET /a* → GET /a", "include search*".
pub fn describe(rule: &LabelRule) -> String {
    match rule.kind {
        LabelRuleKind::Ids if rule.pattern.is_empty() => "collapse ids".into(),
        LabelRuleKind::Ids => format!("collapse ids in {}", rule.pattern),
        LabelRuleKind::Rename => format!("rename {} → {}", rule.pattern, rule.to.as_deref().unwrap_or_default()),
        LabelRuleKind::Include => format!("include {}", rule.pattern),
        LabelRuleKind::Exclude => format!("exclude {}", rule.pattern),
    }
}
