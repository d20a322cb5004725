//! The error of loading a file (a bundle or a tool's output): a kind and a position (file,
//! line and column, JSON path), as the `csv` crate's errors are. Made only by the constructors
//! here, so every error names the file it came from.

use std::fmt;

/// What went wrong while loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// Not valid JSON.
    Syntax,
    /// Valid JSON, but not a runlens bundle.
    NotABundle,
    /// A runlens bundle of a version this build does not read.
    UnsupportedVersion,
    /// A field has the wrong type, or a required one is missing.
    Schema,
    /// Well-typed but inconsistent (duplicate run ids, comparisons naming unknown runs).
    Invalid,
    /// The file could not be read (the browser or the OS refused, the connection broke off).
    Io,
    /// No importer recognises the file (neither a bundle nor a supported tool's output).
    UnknownFormat,
    /// A recognised format that runlens cannot read (e.g. Gatling's binary log); the message says
    /// what to use instead.
    Unsupported,
    /// Over a size or count limit that keeps the page alive; the message names the limit.
    TooLarge,
    /// Recognised, but it holds nothing runlens can show (no samples, no rows).
    Empty,
}

/// A loading error: kind, the file it came from, and where in it. Its fields are read freely;
/// it is built only with [`LoadError::new`] and the position setters.
#[derive(Debug, Clone, PartialEq)]
// `#[non_exhaustive]` would bind other crates only; the private field keeps this crate's own
// modules to `new` as well.
#[allow(clippy::manual_non_exhaustive)]
pub struct LoadError {
    pub kind: LoadErrorKind,
    /// The file (or `src` URL, or "pasted text").
    pub source: String,
    /// JSON path such as `runs[2].transactions[0].p99_ms`.
    pub path: Option<String>,
    /// 1-based line, where the error has one.
    pub line: Option<usize>,
    /// 1-based column within `line`.
    pub column: Option<usize>,
    /// What went wrong, in plain words, without the position.
    pub message: String,
    /// No struct literal outside this module: every error is made by `new`.
    _built_here: (),
}

impl LoadError {
    /// An error of `kind` in the file `source`, with no position yet.
    pub fn new(kind: LoadErrorKind, source: impl Into<String>, message: impl Into<String>) -> Self {
        LoadError {
            kind,
            source: source.into(),
            path: None,
            line: None,
            column: None,
            message: message.into(),
            _built_here: (),
        }
    }

    /// At `line` (1-based), and `column` within it when known.
    pub fn at(mut self, line: usize, column: Option<usize>) -> Self {
        self.line = Some(line);
        self.column = column;
        self
    }

    /// At the position `pos` (line, column), when there is one.
    pub fn at_opt(self, pos: Option<(usize, usize)>) -> Self {
        match pos {
            Some((line, column)) => self.at(line, Some(column)),
            None => self,
        }
    }

    /// At the JSON path `path` (`runs[2].transactions[0]`).
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The same error, said of the file `source` (an inner reader's error, placed in its file).
    pub fn in_source(mut self, source: impl Into<String>) -> Self {
        self.source = source.into();
        self
    }
}

impl std::error::Error for LoadError {}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
            if let Some(col) = self.column {
                write!(f, ", column {col}")?;
            }
        }
        if let Some(path) = &self.path {
            write!(f, ", at {path}")?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_says_its_file_position_path_and_message() {
        let e = LoadError::new(LoadErrorKind::Schema, "a.json", "expected a number")
            .at(3, Some(7))
            .at_path("runs[0].p95_ms");
        assert_eq!(e.to_string(), "a.json, line 3, column 7, at runs[0].p95_ms: expected a number");
        let e = LoadError::new(LoadErrorKind::Io, "b.jtl", "the file could not be read").at_opt(None);
        assert_eq!(e.to_string(), "b.jtl: the file could not be read");
        assert_eq!(e.in_source("c.jtl").source, "c.jtl");
        let boxed: Box<dyn std::error::Error> = Box::new(LoadError::new(LoadErrorKind::Empty, "d", "no rows"));
        assert_eq!(boxed.to_string(), "d: no rows");
    }
}
