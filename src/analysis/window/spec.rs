//! The window a link asks for (`window=FROM-TO`, `window=auto`, `shift=RUN:SECONDS`), read and
//! written in whole seconds of test time: the URL contract, with no float parsing in the page.

/// Which part of each run every view judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WindowSpec {
    /// The whole run: each run's own figures.
    #[default]
    Whole,
    /// Each run's steady state as runlens finds it (`suggest`).
    Auto,
    /// From `from_s` to `to_s` seconds of test time (after each run's first sample, plus its shift).
    Range { from_s: u32, to_s: u32 },
}

/// The longest test time a window may name: 400 days.
pub const MAX_WINDOW_S: u32 = 400 * 86_400;

impl WindowSpec {
    /// Reads `auto`, `whole` or `FROM-TO` (whole seconds, FROM < TO).
    pub fn parse(v: &str) -> Option<WindowSpec> {
        match v.trim() {
            "auto" => Some(WindowSpec::Auto),
            "whole" | "" => Some(WindowSpec::Whole),
            t => {
                let (a, b) = t.split_once('-')?;
                let from_s = a.trim().parse::<u32>().ok()?;
                let to_s = b.trim().parse::<u32>().ok()?;
                (from_s < to_s && to_s <= MAX_WINDOW_S).then_some(WindowSpec::Range { from_s, to_s })
            }
        }
    }

    /// The parameter's value; `None` for the whole run (left out of links).
    pub fn to_param(self) -> Option<String> {
        match self {
            WindowSpec::Whole => None,
            WindowSpec::Auto => Some("auto".into()),
            WindowSpec::Range { from_s, to_s } => Some(format!("{from_s}-{to_s}")),
        }
    }
}

/// A run's own offset: its window starts `seconds` later (earlier when negative) than the others',
/// for runs whose ramp-up differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    pub run: String,
    pub seconds: i32,
}

impl Shift {
    /// Reads `RUN:SECONDS`; the run id may itself hold colons (the last one separates).
    pub fn parse(v: &str) -> Option<Shift> {
        let (run, s) = v.rsplit_once(':')?;
        let seconds = s.trim().parse::<i32>().ok().filter(|s| s.unsigned_abs() <= MAX_WINDOW_S)?;
        (!run.is_empty()).then(|| Shift { run: run.to_string(), seconds })
    }

    pub fn to_param(&self) -> String {
        format!("{}:{}", self.run, self.seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_values_round_trip_and_bad_ones_are_refused() {
        for v in ["auto", "60-3000", "0-1"] {
            let w = WindowSpec::parse(v).unwrap();
            assert_eq!(w.to_param().as_deref(), Some(v));
        }
        assert_eq!(WindowSpec::parse("whole"), Some(WindowSpec::Whole));
        for bad in ["3000-60", "5-5", "-5", "a-b", "1.5-3", "60", "0-99999999999"] {
            assert_eq!(WindowSpec::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn shifts_take_the_last_colon() {
        assert_eq!(Shift::parse("a:b:-30"), Some(Shift { run: "a:b".into(), seconds: -30 }));
        assert_eq!(Shift::parse("r:45").unwrap().to_param(), "r:45");
        assert_eq!(Shift::parse(":5"), None);
        assert_eq!(Shift::parse("r:x"), None);
    }
}
