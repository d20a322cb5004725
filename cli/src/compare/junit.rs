//! The report as JUnit XML (quick-xml's writer escapes text and attributes): one `<testsuite>`
//! per candidate, one `<testcase>` per criterion and transaction, a `<failure>` for each failed
//! one and `<skipped>` where there was not enough data. Without criteria, one testcase per
//! candidate: no regression beyond noise.

use super::gate::{Candidate, Gate, Tally};
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use runlens::analysis::criteria::Status;

/// Text XML 1.0 can hold: control characters other than tab and line breaks cannot be written
/// even as references.
fn xml_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

fn start<'a>(name: &'a str, attrs: &[(&str, String)]) -> BytesStart<'a> {
    let mut e = BytesStart::new(name);
    for (k, v) in attrs {
        e.push_attribute((*k, xml_text(v).as_str()));
    }
    e
}

struct Xml(Writer<Vec<u8>>);

impl Xml {
    fn event(&mut self, e: Event<'_>) {
        // Writing to a Vec cannot fail.
        let _ = self.0.write_event(e);
    }

    fn open(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.event(Event::Start(start(name, attrs)));
    }

    fn close(&mut self, name: &str) {
        self.event(Event::End(BytesEnd::new(name)));
    }

    fn empty(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.event(Event::Empty(start(name, attrs)));
    }

    /// `<name attrs>text</name>`.
    fn element(&mut self, name: &str, attrs: &[(&str, String)], text: &str) {
        self.open(name, attrs);
        self.event(Event::Text(BytesText::new(&xml_text(text))));
        self.close(name);
    }
}

fn suite(x: &mut Xml, g: &Gate, c: &Candidate) {
    let title = g.title(c);
    if g.criteria.is_none() {
        let failures = usize::from(c.failed);
        x.open("testsuite", &[("name", title), ("tests", "1".into()), ("failures", failures.to_string())]);
        let case = [("classname", "runlens.summary".to_string()), ("name", "no regression beyond noise".into())];
        x.open("testcase", &case);
        if c.failed {
            let message = c.summary.sentence(&g.labels);
            x.element("failure", &[("message", message.clone()), ("type", "regression".into())], &message);
        }
        x.close("testcase");
        x.close("testsuite");
        return;
    }
    let t = Tally::of(&c.checks);
    x.open(
        "testsuite",
        &[
            ("name", title),
            ("tests", c.checks.len().to_string()),
            ("failures", t.failed.to_string()),
            ("skipped", t.skipped.to_string()),
        ],
    );
    for k in &c.checks {
        let case = [("classname", format!("runlens.{}", g.rule_title(k))), ("name", k.key.to_string())];
        match k.status {
            Status::Passed => x.empty("testcase", &case),
            Status::NotEnoughData => {
                x.open("testcase", &case);
                x.empty("skipped", &[("message", format!("not enough data: {}", k.skipped))]);
                x.close("testcase");
            }
            Status::Failed => {
                x.open("testcase", &case);
                let lines: Vec<String> = k
                    .findings
                    .iter()
                    .map(|f| {
                        let what = if f.metric.is_empty() { String::new() } else { format!("{}: ", f.metric) };
                        format!("{what}{} → {} ({}): {}", f.base, f.cand, f.change, f.why)
                    })
                    .collect();
                let message = lines.first().cloned().unwrap_or_default();
                x.element("failure", &[("message", message), ("type", "criterion".into())], &lines.join("\n"));
                x.close("testcase");
            }
        }
    }
    x.close("testsuite");
}

pub fn render(g: &Gate) -> String {
    let mut x = Xml(Writer::new_with_indent(Vec::new(), b' ', 2));
    x.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let t = g.tally();
    let (tests, failures) = match g.criteria {
        Some(_) => (t.failed + t.skipped + t.passed, t.failed),
        None => (g.candidates.len(), g.failed_candidates()),
    };
    x.open(
        "testsuites",
        &[
            ("name", "runlens compare".into()),
            ("tests", tests.to_string()),
            ("failures", failures.to_string()),
            ("skipped", t.skipped.to_string()),
        ],
    );
    for c in &g.candidates {
        suite(&mut x, g, c);
    }
    x.close("testsuites");
    let mut out = String::from_utf8(x.0.into_inner()).unwrap_or_default();
    out.push('\n');
    out
}
