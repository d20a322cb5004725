//! A big bundle cut into groups of runs while it downloads (`worker::download`): each time more
//! text has arrived and been scanned (`split::Scanner`), the runs that are complete and not yet in
//! a group form new groups of about `group_bytes`, which other workers parse while the rest
//! arrives. The head (`split::Cut::head`) keeps only the first run, so the worker that downloads
//! has little left to parse once the last byte is in.
//!
//! The groups are only a proposal, as in `split`: `finish` checks them against the separators of
//! the whole text, and anything that does not agree (the scan was wrong about an earlier part of
//! the text) gives None, and the caller loads the whole file in one pass.

use super::split::Cut;

/// Groups cut so far, and where the next group starts.
#[derive(Debug, Clone)]
pub struct StreamCut {
    group_bytes: usize,
    /// The index of the first run that is in no group yet (run 0 is the head's).
    next: usize,
    /// Each group: the index of its first run and the byte positions of the separators before
    /// and after it (as `Cut::parts`).
    parts: Vec<(usize, usize, usize)>,
}

impl StreamCut {
    /// Groups of at least `group_bytes` bytes of runs (the last one, cut by `finish`, may be less).
    pub fn new(group_bytes: usize) -> StreamCut {
        StreamCut { group_bytes: group_bytes.max(1), next: 1, parts: Vec::new() }
    }

    /// How many groups are cut.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The groups cut so far (as `Cut::parts`).
    pub fn parts(&self) -> &[(usize, usize, usize)] {
        &self.parts
    }

    /// Cuts new groups from `seps`, the `runs` array's separators found so far (`Scanner::seps`);
    /// returns the index of the first new one (`len()` when there is none).
    pub fn take(&mut self, seps: &[usize]) -> usize {
        let start = self.parts.len();
        self.cut(seps, false);
        start
    }

    fn cut(&mut self, seps: &[usize], to_end: bool) {
        while let Some(&from) = seps.get(self.next) {
            let last = seps.len() - 1;
            let end = (self.next + 1..seps.len()).find(|&j| seps[j] - from >= self.group_bytes);
            let end = match end {
                Some(j) => j,
                None if to_end && last > self.next => last,
                None => break,
            };
            self.parts.push((self.next, from, seps[end]));
            self.next = end;
        }
    }

    /// The whole cut, once `bytes` is the whole text and `seps` all its separators
    /// (`Scanner::finish`): the groups cut so far, then the runs left in groups of the same size.
    /// None when there are fewer than two runs, the text is not a JSON object, or a group cut so far
    /// does not lie between two of `seps`.
    pub fn finish(mut self, bytes: &[u8], seps: &[usize]) -> Option<Cut> {
        let runs = Cut::runs(bytes, seps)?;
        let agrees = self
            .parts
            .iter()
            .all(|&(first, from, to)| seps.get(first) == Some(&from) && seps.binary_search(&to).is_ok());
        if !agrees || self.next > runs {
            return None;
        }
        self.cut(seps, true);
        Some(Cut::from_parts(seps[1], seps[runs], self.parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::split::{run_separators, Scanner};

    fn bundle(runs: usize, pad: usize) -> String {
        let runs: Vec<String> =
            (0..runs).map(|i| format!(r#"{{"id":"r{i}","label":"{}"}}"#, "x".repeat(pad + i % 3))).collect();
        format!(r#"{{"format":"runlens-bundle","version":1,"runs":[{}],"notes":"after"}}"#, runs.join(","))
    }

    /// The text fed in pieces of `piece` bytes, groups taken after each; then finished.
    fn streamed(text: &str, piece: usize, group: usize) -> Option<Cut> {
        let b = text.as_bytes();
        let (mut scanner, mut cut) = (Scanner::default(), StreamCut::new(group));
        let mut at = 0;
        while at < b.len() {
            at = (at + piece).min(b.len());
            scanner.feed(&b[..at]);
            let first = cut.take(scanner.seps());
            assert!(first <= cut.len());
        }
        cut.finish(b, &scanner.finish(b)?)
    }

    #[test]
    fn groups_taken_while_the_text_arrives_cover_every_run_but_the_first_once() {
        let text = bundle(40, 50);
        let seps = run_separators(text.as_bytes()).unwrap();
        for piece in [1, 7, 64, 300, 5000, text.len()] {
            let cut = streamed(&text, piece, 200).unwrap();
            let parts = cut.parts.clone();
            assert_eq!(parts[0].0, 1, "piece {piece}");
            for w in parts.windows(2) {
                assert_eq!(w[0].2, w[1].1, "groups are contiguous (piece {piece})");
            }
            assert_eq!(parts.last().unwrap().2, seps[40], "the last group ends at the array's end");
            for &(first, from, to) in &parts[..parts.len() - 1] {
                assert_eq!(seps[first], from);
                assert!(to - from >= 200, "a group cut before the end is at least the group size");
            }
            // The head and the groups, parsed apart, hold every run in order.
            let (head, _) = cut.head(text.clone().into_bytes());
            let head: serde_json::Value = serde_json::from_slice(&head).unwrap();
            let mut ids: Vec<String> =
                head["runs"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
            assert_eq!(ids, ["r0"]);
            assert_eq!(head["notes"], "after");
            for i in 0..parts.len() {
                let group: serde_json::Value = serde_json::from_slice(&cut.part(text.as_bytes(), i)).unwrap();
                ids.extend(group.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()));
            }
            assert_eq!(ids, (0..40).map(|i| format!("r{i}")).collect::<Vec<_>>(), "piece {piece}");
        }
    }

    #[test]
    fn nothing_is_cut_before_a_group_is_complete_and_too_few_runs_give_no_cut() {
        let text = bundle(10, 50);
        let b = text.as_bytes();
        let mut scanner = Scanner::default();
        let mut cut = StreamCut::new(10_000);
        scanner.feed(b);
        assert_eq!(cut.take(scanner.seps()), 0);
        assert!(cut.is_empty(), "ten small runs are less than one group");
        // Finished, the runs after the first make one group.
        let seps = scanner.finish(b).unwrap();
        let done = StreamCut::new(10_000).finish(b, &seps).unwrap();
        assert_eq!(done.parts.len(), 1);
        assert!(streamed(&bundle(1, 50), 64, 10).is_none(), "one run is not cut");
        assert!(streamed("[1,2,3]", 1, 1).is_none());
    }

    #[test]
    fn groups_that_the_whole_text_does_not_confirm_give_no_cut() {
        let text = bundle(20, 50);
        let b = text.as_bytes();
        let mut cut = StreamCut::new(100);
        let mut scanner = Scanner::default();
        scanner.feed(&b[..b.len() / 2]);
        cut.take(scanner.seps());
        assert!(!cut.is_empty());
        // Other separators than those the groups were cut at (as if the scan had been wrong).
        let seps: Vec<usize> = run_separators(b).unwrap().iter().map(|s| s + 1).collect();
        assert!(cut.clone().finish(b, &seps).is_none());
        assert!(cut.finish(b, &run_separators(b).unwrap()).is_some());
    }
}
