//! Plotly figures whose text cannot bypass `chart_text`: every attribute value is an [`Attr`],
//! and an `Attr` is made only of numbers, flags, the code's own `&'static str` literals, Plotly's
//! closed vocabularies and [`ChartText`], so no string from a bundle or a raw file reaches
//! Plotly.js (which renders a subset of HTML in names, categories, titles and hover text) without
//! being encoded. Pure data: `ui::components::chart` hands a `Figure` to Plotly.js.
//!
//! Text from data goes in as `ChartText`:
//!
//! ```
//! use runlens::{chart_text::chart_text, figure::Trace};
//! let label: String = "<a href='x'>run</a>".into(); // from a bundle
//! let t = Trace::bar().with("name", chart_text(&label));
//! assert_eq!(t.as_map()["name"], "&lt;a href='x'&gt;run&lt;/a&gt;");
//! ```
//!
//! A `String` is not an `Attr`, so this does not compile:
//!
//! ```compile_fail
//! use runlens::figure::Trace;
//! let label: String = "<a href='x'>run</a>".into(); // from a bundle
//! let _ = Trace::bar().with("name", label);
//! ```
//!
//! nor does a borrowed one:
//!
//! ```compile_fail
//! use runlens::figure::Attr;
//! fn name(label: &str) -> Attr { Attr::from(label) }
//! ```

use crate::chart_text::ChartText;
use serde_json::{Map, Value};

/// One value of a figure (a trace's, the layout's or the configuration's): see the module's doc.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr(Value);

/// Plotly's closed vocabularies (modes, orientations, anchors, axis types…) as the `plotly`
/// crate's types: their serialized names are the crate's, never data. `ui::components::chart`
/// lists the types a figure may use.
pub trait Vocabulary: serde::Serialize {}

impl Attr {
    /// A member of one of Plotly's closed vocabularies.
    pub fn of(v: impl Vocabulary) -> Attr {
        Attr(serde_json::to_value(v).unwrap_or(Value::Null))
    }

    /// A download's file name (never drawn): only ASCII letters, digits, `-`, `_` and `.` are
    /// kept, the rest become `-`.
    pub fn file_name(name: &str) -> Attr {
        let safe: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '-' })
            .collect();
        Attr(Value::String(safe))
    }

    /// An object of attributes (`{"color": …, "width": …}`).
    pub fn obj<const N: usize>(pairs: [(&'static str, Attr); N]) -> Attr {
        Attr(Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v.0)).collect()))
    }

    /// Sets `key` of an object (other values are left as they are).
    pub fn set(&mut self, key: &'static str, v: impl Into<Attr>) {
        if let Value::Object(m) = &mut self.0 {
            m.insert(key.to_string(), v.into().0);
        }
    }

    /// The value as Plotly.js JSON.
    pub fn as_value(&self) -> &Value {
        &self.0
    }
}

macro_rules! attr_from_number {
    ($($t:ty),*) => {$(
        impl From<$t> for Attr {
            fn from(v: $t) -> Attr {
                Attr(Value::from(v))
            }
        }
    )*};
}
// f64: NaN and infinities become null (`Value::from`), as JSON text has them.
attr_from_number!(f64, u32, i32, usize, bool);

/// The code's own literal (a colour, a hover template with Plotly's `%{…}` and `<br>`).
impl From<&'static str> for Attr {
    fn from(s: &'static str) -> Attr {
        Attr(Value::from(s))
    }
}

impl From<ChartText> for Attr {
    fn from(t: ChartText) -> Attr {
        Attr(Value::String(t.into_string()))
    }
}

impl From<Option<f64>> for Attr {
    fn from(v: Option<f64>) -> Attr {
        Attr(v.map_or(Value::Null, Value::from))
    }
}

impl<T: Into<Attr>> From<Vec<T>> for Attr {
    fn from(items: Vec<T>) -> Attr {
        Attr(Value::Array(items.into_iter().map(|v| v.into().0).collect()))
    }
}

/// An object of attributes built one key at a time: a trace or a layout.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attrs(Map<String, Value>);

impl Attrs {
    /// Sets `key` (a later value replaces an earlier one).
    pub fn set(&mut self, key: &'static str, v: impl Into<Attr>) {
        self.0.insert(key.to_string(), v.into().0);
    }

    /// `set`, for a chain of calls.
    pub fn with(mut self, key: &'static str, v: impl Into<Attr>) -> Self {
        self.set(key, v);
        self
    }

    /// `other`'s keys over these.
    pub fn extend(&mut self, other: Attrs) {
        self.0.extend(other.0);
    }

    pub fn as_map(&self) -> &Map<String, Value> {
        &self.0
    }
}

impl From<Attrs> for Attr {
    fn from(a: Attrs) -> Attr {
        Attr(Value::Object(a.0))
    }
}

/// One trace: `Trace::bar().with("x", …).with("name", chart_text(label))`.
pub type Trace = Attrs;

impl Trace {
    pub fn bar() -> Trace {
        Attrs::default().with("type", "bar")
    }

    pub fn scatter() -> Trace {
        Attrs::default().with("type", "scatter")
    }
}

/// A Plotly.js figure: traces, layout and configuration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figure {
    data: Vec<Attrs>,
    layout: Attrs,
    config: Attrs,
}

impl Figure {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add_trace(&mut self, trace: Trace) {
        self.data.push(trace);
    }

    /// Sets the layout (`ui::components::chart::themed` gives one in the page's theme).
    pub fn set_layout(&mut self, layout: Attrs) {
        self.layout = layout;
    }

    /// Sets the configuration (`ui::components::chart::configured`).
    pub fn set_config(&mut self, config: Attrs) {
        self.config = config;
    }

    pub fn traces(&self) -> impl Iterator<Item = &Map<String, Value>> {
        self.data.iter().map(Attrs::as_map)
    }

    pub fn layout(&self) -> &Map<String, Value> {
        self.layout.as_map()
    }

    pub fn config(&self) -> &Map<String, Value> {
        self.config.as_map()
    }

    /// The figure as Plotly.js JSON (`{data, layout, config}`), for tests and comparisons.
    pub fn to_value(&self) -> Value {
        let data = self.data.iter().map(|t| Value::Object(t.0.clone())).collect();
        serde_json::json!({"data": Value::Array(data), "layout": self.layout.0, "config": self.config.0})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart_text::chart_text;

    #[derive(serde::Serialize)]
    enum Mode {
        #[serde(rename = "lines+markers")]
        LinesMarkers,
    }
    impl Vocabulary for Mode {}

    /// Every string anywhere in `v`.
    fn strings(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            Value::Object(m) => m.iter().for_each(|(k, x)| {
                out.push(k.clone());
                strings(x, out)
            }),
            _ => {}
        }
    }

    #[test]
    fn data_text_reaches_the_figure_encoded_and_the_code_s_own_as_written() {
        let hostile = "<a href=\"javascript:alert(1)\">run</a> & <b>";
        let mut fig = Figure::new();
        fig.add_trace(
            Trace::scatter()
                .with("name", chart_text(hostile))
                .with("x", vec![chart_text(hostile), chart_text("b")])
                .with("y", vec![Some(1.0), None, Some(f64::NAN)])
                .with("mode", Attr::of(Mode::LinesMarkers))
                .with("hovertemplate", "%{x}<br>%{y}<extra></extra>")
                .with("marker", Attr::obj([("color", "#0f7b3f".into()), ("size", 9u32.into())])),
        );
        let v = fig.to_value();
        let mut all = Vec::new();
        strings(&v, &mut all);
        let from_data: Vec<&String> = all.iter().filter(|s| s.contains("href")).collect();
        assert_eq!(from_data.len(), 2, "{all:?}");
        for s in from_data {
            assert!(!s.contains('<') && !s.contains('>'), "markup from data left unencoded: {s}");
            assert_eq!(s, "&lt;a href=\"javascript:alert(1)\"&gt;run&lt;/a&gt; &amp; &lt;b&gt;");
        }
        let t = &v["data"][0];
        assert_eq!(t["hovertemplate"], "%{x}<br>%{y}<extra></extra>");
        assert_eq!(t["mode"], "lines+markers");
        assert_eq!(t["y"], serde_json::json!([1.0, null, null]));
        assert_eq!(t["marker"], serde_json::json!({"color": "#0f7b3f", "size": 9}));
        assert_eq!(t["type"], "scatter");
    }

    #[test]
    fn a_file_name_keeps_only_safe_characters() {
        assert_eq!(Attr::file_name("latency-p95").as_value(), "latency-p95");
        assert_eq!(Attr::file_name("a<b>/c d.png").as_value(), "a-b--c-d.png");
    }

    #[test]
    fn later_keys_replace_earlier_ones_and_objects_take_new_keys() {
        let mut layout = Attrs::default().with("height", 300u32).with("title", "a");
        layout.extend(Attrs::default().with("height", 400u32));
        let mut axis = Attr::obj([("gridcolor", "#eee".into())]);
        axis.set("nticks", 14u32);
        layout.set("xaxis", axis);
        let mut fig = Figure::new();
        fig.set_layout(layout);
        assert_eq!(fig.layout()["height"], 400);
        assert_eq!(fig.layout()["title"], "a");
        assert_eq!(fig.layout()["xaxis"], serde_json::json!({"gridcolor": "#eee", "nticks": 14}));
    }
}
