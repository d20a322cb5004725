//! A criteria file: TOML (the `toml` crate) or YAML (`serde-saphyr`), chosen by its extension.
//! Either is read into a tree whose nodes keep their line and column (each crate's `Spanned`),
//! which becomes the JSON value `runlens::analysis::criteria::from_json` reads, so a file and a
//! bundle's `thresholds.criteria` go through one reader; every error's path (`fail[2].when`) is
//! then found in the tree and told as `file:line:column`.

use runlens::analysis::criteria::{CriteriaError, Path, Seg};
use runlens::bundle::Criteria;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// A node of the document, its children deserialized as `N` (a format's spanned node).
enum Tree<N> {
    Map(Vec<(String, N)>),
    Seq(Vec<N>),
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
}

struct TreeVisitor<N>(PhantomData<N>);

impl<'de, N: Deserialize<'de>> Visitor<'de> for TreeVisitor<N> {
    type Value = Tree<N>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Tree<N>, E> {
        Ok(Tree::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Tree<N>, E> {
        Ok(Tree::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tree<N>, E> {
        i64::try_from(v).map(Tree::Int).map_err(|_| E::custom("the number is too large"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Tree<N>, E> {
        Ok(Tree::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Tree<N>, E> {
        Ok(Tree::Str(v.to_string()))
    }
    fn visit_unit<E>(self) -> Result<Tree<N>, E> {
        Ok(Tree::Null)
    }
    fn visit_none<E>(self) -> Result<Tree<N>, E> {
        Ok(Tree::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree<N>, A::Error> {
        let mut out = Vec::new();
        while let Some(n) = seq.next_element()? {
            out.push(n);
        }
        Ok(Tree::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree<N>, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, N>()? {
            out.push((k, v));
        }
        Ok(Tree::Map(out))
    }
}

impl<'de, N: Deserialize<'de>> Deserialize<'de> for Tree<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TreeVisitor(PhantomData))
    }
}

/// A TOML node with its byte span.
struct TomlNode(toml::Spanned<Tree<TomlNode>>);

impl<'de> Deserialize<'de> for TomlNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        toml::Spanned::deserialize(d).map(TomlNode)
    }
}

/// A YAML node with its line and column.
struct YamlNode(serde_saphyr::Spanned<Tree<YamlNode>>);

impl<'de> Deserialize<'de> for YamlNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_saphyr::Spanned::deserialize(d).map(YamlNode)
    }
}

/// A node of either format with its place (line and column from 1).
struct Node {
    at: (usize, usize),
    tree: Tree<Node>,
}

fn convert<N>(tree: Tree<N>, f: &impl Fn(N) -> Node) -> Tree<Node> {
    match tree {
        Tree::Map(m) => Tree::Map(m.into_iter().map(|(k, v)| (k, f(v))).collect()),
        Tree::Seq(s) => Tree::Seq(s.into_iter().map(f).collect()),
        Tree::Str(s) => Tree::Str(s),
        Tree::Int(i) => Tree::Int(i),
        Tree::Float(x) => Tree::Float(x),
        Tree::Bool(b) => Tree::Bool(b),
        Tree::Null => Tree::Null,
    }
}

/// Line and column (from 1, in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn from_toml(n: TomlNode, text: &str) -> Node {
    let at = line_column(text, n.0.span().start);
    Node { at, tree: convert(n.0.into_inner(), &|c| from_toml(c, text)) }
}

fn from_yaml(n: YamlNode) -> Node {
    let l = n.0.referenced;
    Node { at: (l.line() as usize, l.column() as usize), tree: convert(n.0.value, &from_yaml) }
}

fn to_json(n: &Node) -> serde_json::Value {
    use serde_json::Value as V;
    match &n.tree {
        Tree::Map(m) => V::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
        Tree::Seq(s) => V::Array(s.iter().map(to_json).collect()),
        Tree::Str(s) => V::String(s.clone()),
        Tree::Int(i) => V::from(*i),
        Tree::Float(x) => serde_json::Number::from_f64(*x).map_or(V::Null, V::Number),
        Tree::Bool(b) => V::Bool(*b),
        Tree::Null => V::Null,
    }
}

/// The place of `path` in the tree: the deepest node on it that exists.
fn locate(root: &Node, path: &Path) -> (usize, usize) {
    let mut at = root;
    for seg in &path.0 {
        let next = match (seg, &at.tree) {
            (Seg::Key(k), Tree::Map(m)) => m.iter().find(|(key, _)| key == k).map(|(_, v)| v),
            (Seg::Index(i), Tree::Seq(s)) => s.get(*i),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    at.at
}

/// A criteria file read: its criteria, their unknown keys, and the tree that places errors.
pub struct CriteriaFile {
    pub name: String,
    root: Node,
    pub criteria: Criteria,
    pub unknown: Vec<CriteriaError>,
}

impl CriteriaFile {
    /// `file:line:column: at PATH: message` for an error of these criteria.
    pub fn error(&self, e: &CriteriaError) -> String {
        let (line, column) = locate(&self.root, &e.path);
        if e.path.0.is_empty() {
            format!("{}:{line}:{column}: {}", self.name, e.message)
        } else {
            format!("{}:{line}:{column}: at {}: {}", self.name, e.path, e.message)
        }
    }
}

/// Reads a criteria file (`.toml`, `.yaml`, `.yml`); errors in words with their places.
pub fn read(path: &std::path::Path) -> Result<CriteriaFile, Vec<String>> {
    let name = path.to_string_lossy().into_owned();
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|e| vec![format!("{name}: the file could not be read ({e})")])?;
    let root = match ext.as_str() {
        "toml" => match toml::from_str::<TomlNode>(&text) {
            Ok(n) => from_toml(n, &text),
            Err(e) => {
                let (line, column) = line_column(&text, e.span().map_or(0, |s| s.start));
                return Err(vec![format!("{name}:{line}:{column}: {}", e.message().trim_end())]);
            }
        },
        "yaml" | "yml" => match serde_saphyr::from_str::<YamlNode>(&text) {
            Ok(n) => from_yaml(n),
            Err(e) => {
                let (line, column) = e.location().map_or((1, 1), |l| (l.line() as usize, l.column() as usize));
                return Err(vec![format!("{name}:{line}:{column}: {}", yaml_message(&e))]);
            }
        },
        _ => return Err(vec![format!("{name}: a criteria file is .toml, .yaml or .yml")]),
    };
    let mut file = CriteriaFile { name, root, criteria: Criteria::default(), unknown: Vec::new() };
    match runlens::analysis::criteria::from_json(to_json(&file.root)) {
        Ok((c, unknown)) => (file.criteria, file.unknown) = (c, unknown),
        Err(errors) => return Err(errors.iter().map(|e| file.error(e)).collect()),
    }
    Ok(file)
}

/// serde-saphyr's message without the snippet it draws under it and the place (said before it).
fn yaml_message(e: &serde_saphyr::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default().trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    match first.strip_prefix("line ").and_then(|rest| rest.split_once(": ")) {
        Some((place, message)) if place.contains("column") => message.to_string(),
        _ => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn places_count_lines_and_characters_from_one() {
        let t = "a = 1\nbé = \"x\"";
        assert_eq!(super::line_column(t, 0), (1, 1));
        assert_eq!(super::line_column(t, t.find('"').unwrap()), (2, 6));
    }
}
