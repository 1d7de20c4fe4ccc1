//! What the run prints: one line per case, then the summary.

use std::fmt;

/// The result of one case (or the walk) after `--allow` is applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Result {
    /// As expected.
    Pass,
    /// A difference.
    Fail(String),
    /// A difference the case declares under a deviation tag given with `--allow`.
    Allowed {
        /// The tag.
        tag: String,
        /// The difference.
        difference: String,
    },
}

/// One printed line (or block, for a difference over several lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportLine {
    /// The case's name.
    pub name: String,
    /// What it found.
    pub result: Result,
    /// A note after a passing case (the walk's counts).
    pub note: Option<String>,
}

impl fmt::Display for ReportLine {
    /// `pass  NAME`, `FAIL  NAME: difference`, `allowed  NAME (tag): difference`; the lines
    /// after the first of a long difference are indented.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let indent = |s: &str| s.replace('\n', "\n      ");
        match &self.result {
            Result::Pass => match &self.note {
                Some(note) => write!(f, "pass  {}: {note}", self.name),
                None => write!(f, "pass  {}", self.name),
            },
            Result::Fail(d) => write!(f, "FAIL  {}: {}", self.name, indent(d)),
            Result::Allowed { tag, difference } => {
                write!(f, "allowed  {} ({tag}): {}", self.name, indent(difference))
            }
        }
    }
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConformanceSummary {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases that failed under an allowed deviation, with the tags seen (each once, in order).
    pub allowed: usize,
    /// The allowed deviations that were seen.
    pub tags: Vec<String>,
}

impl ConformanceSummary {
    /// Counts one line.
    pub fn add(&mut self, line: &ReportLine) {
        match &line.result {
            Result::Pass => self.passed += 1,
            Result::Fail(_) => self.failed += 1,
            Result::Allowed { tag, .. } => {
                self.allowed += 1;
                if !self.tags.contains(tag) {
                    self.tags.push(tag.clone());
                }
            }
        }
    }

    /// The exit status: 0 when nothing failed, else 1.
    pub fn status(&self) -> u8 {
        u8::from(self.failed > 0)
    }
}

impl fmt::Display for ConformanceSummary {
    /// `conformance: 87 passed, 2 failed, 1 allowed (repetition-draw) of 90`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.passed + self.failed + self.allowed;
        write!(f, "conformance: {} passed, {} failed, {} allowed", self.passed, self.failed, self.allowed)?;
        if !self.tags.is_empty() {
            write!(f, " ({})", self.tags.join(", "))?;
        }
        write!(f, " of {total}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_summary_read_as_documented() {
        let pass = ReportLine { name: "a".into(), result: Result::Pass, note: None };
        let fail = ReportLine { name: "b".into(), result: Result::Fail("x\ny".into()), note: None };
        let allowed = ReportLine {
            name: "c".into(),
            result: Result::Allowed { tag: "repetition-draw".into(), difference: "z".into() },
            note: None,
        };
        assert_eq!(pass.to_string(), "pass  a");
        assert_eq!(fail.to_string(), "FAIL  b: x\n      y");
        assert_eq!(allowed.to_string(), "allowed  c (repetition-draw): z");
        let mut s = ConformanceSummary::default();
        for l in [&pass, &fail, &allowed, &allowed] {
            s.add(l);
        }
        assert_eq!(s.to_string(), "conformance: 1 passed, 1 failed, 2 allowed (repetition-draw) of 4");
        assert_eq!(s.status(), 1);
    }
}
