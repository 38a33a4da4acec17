//! Verdict lines and SV-COMP scoring: what a verifier answered, and what that answer is worth
//! against the expected verdict of a (task, property) pair.

use super::task::{Expected, Property};
use serde::Serialize;

/// The subproperties of valid-memsafety that a FALSE verdict may name.
const MEMSAFETY_SUBPROPERTIES: [&str; 3] = ["valid-deref", "valid-free", "valid-memtrack"];

/// A verdict as printed on the first stdout line of `shapecheck verify`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `TRUE`: the property holds.
    True,
    /// `FALSE(p)`: the property is violated, `p` being the violated (sub)property.
    False(String),
    /// `UNKNOWN`: no answer.
    Unknown,
}

/// Parses a verdict line; `None` when it is not exactly one of the known verdicts.
pub fn parse_verdict(line: &str) -> Option<Verdict> {
    match line.trim_end() {
        "TRUE" => Some(Verdict::True),
        "UNKNOWN" => Some(Verdict::Unknown),
        other => {
            let inner = other.strip_prefix("FALSE(")?.strip_suffix(')')?;
            let known = inner == "unreach-call" || inner == "valid-memcleanup";
            (known || MEMSAFETY_SUBPROPERTIES.contains(&inner))
                .then(|| Verdict::False(inner.to_string()))
        }
    }
}

/// How a pair's answer is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Expected true, answered TRUE.
    CorrectTrue,
    /// Expected false, answered FALSE with the expected (sub)property.
    CorrectFalse,
    /// Expected false, answered TRUE.
    WrongTrue,
    /// Answered FALSE when expected true, or with a (sub)property other than the expected one.
    WrongFalse,
    /// Answered UNKNOWN.
    Unknown,
    /// The verifier failed: non-zero exit, a signal, or no valid verdict line.
    Error,
    /// The verifier was killed at the wall-time limit.
    Timeout,
}

impl Category {
    /// The SV-COMP score of the category.
    pub fn score(self) -> i64 {
        match self {
            Category::CorrectTrue => 2,
            Category::CorrectFalse => 1,
            Category::WrongTrue => -32,
            Category::WrongFalse => -16,
            Category::Unknown | Category::Error | Category::Timeout => 0,
        }
    }

    /// The category's name, as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Category::CorrectTrue => "correct-true",
            Category::CorrectFalse => "correct-false",
            Category::WrongTrue => "wrong-true",
            Category::WrongFalse => "wrong-false",
            Category::Unknown => "unknown",
            Category::Error => "error",
            Category::Timeout => "timeout",
        }
    }

    /// Whether the answer contradicts the expected verdict.
    pub fn is_wrong(self) -> bool {
        matches!(self, Category::WrongTrue | Category::WrongFalse)
    }

    /// Whether the answer is correct.
    pub fn is_correct(self) -> bool {
        matches!(self, Category::CorrectTrue | Category::CorrectFalse)
    }
}

/// Scores an answered verdict against the expectation for `property`.
pub fn judge(property: Property, expected: &Expected, verdict: &Verdict) -> Category {
    match (verdict, expected.verdict) {
        (Verdict::Unknown, _) => Category::Unknown,
        (Verdict::True, true) => Category::CorrectTrue,
        (Verdict::True, false) => Category::WrongTrue,
        (Verdict::False(_), true) => Category::WrongFalse,
        (Verdict::False(violated), false) => {
            if violates_expected(property, expected.subproperty.as_deref(), violated) {
                Category::CorrectFalse
            } else {
                Category::WrongFalse
            }
        }
    }
}

/// Whether a FALSE naming `violated` is the violation expected for `property`.
fn violates_expected(property: Property, subproperty: Option<&str>, violated: &str) -> bool {
    match (property, subproperty) {
        (Property::ValidMemsafety, Some(expected)) => violated == expected,
        (Property::ValidMemsafety, None) => MEMSAFETY_SUBPROPERTIES.contains(&violated),
        (Property::UnreachCall | Property::ValidMemcleanup, _) => violated == property.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(verdict: bool, subproperty: Option<&str>) -> Expected {
        Expected {
            verdict,
            subproperty: subproperty.map(str::to_string),
        }
    }

    fn judge_line(property: Property, exp: &Expected, line: &str) -> Category {
        judge(property, exp, &parse_verdict(line).unwrap())
    }

    #[test]
    fn parses_verdict_lines() {
        assert_eq!(parse_verdict("TRUE"), Some(Verdict::True));
        assert_eq!(parse_verdict("UNKNOWN\r"), Some(Verdict::Unknown));
        let deref = Some(Verdict::False("valid-deref".to_string()));
        assert_eq!(parse_verdict("FALSE(valid-deref)"), deref);
        for bad in [
            "",
            "true",
            "FALSE",
            "FALSE()",
            "FALSE(overflow)",
            " TRUE",
            "TRUE TRUE",
        ] {
            assert_eq!(parse_verdict(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn scores_every_category() {
        let scores: Vec<i64> = [
            Category::CorrectTrue,
            Category::CorrectFalse,
            Category::WrongTrue,
            Category::WrongFalse,
            Category::Unknown,
            Category::Error,
            Category::Timeout,
        ]
        .map(Category::score)
        .to_vec();
        assert_eq!(scores, vec![2, 1, -32, -16, 0, 0, 0]);
        assert!(Category::WrongTrue.is_wrong() && !Category::Timeout.is_wrong());
        assert!(Category::CorrectFalse.is_correct() && !Category::Unknown.is_correct());
    }

    #[test]
    fn judges_unreach_call() {
        let (t, f) = (expected(true, None), expected(false, None));
        let p = Property::UnreachCall;
        assert_eq!(judge_line(p, &t, "TRUE"), Category::CorrectTrue);
        assert_eq!(
            judge_line(p, &f, "FALSE(unreach-call)"),
            Category::CorrectFalse
        );
        assert_eq!(judge_line(p, &f, "TRUE"), Category::WrongTrue);
        assert_eq!(
            judge_line(p, &t, "FALSE(unreach-call)"),
            Category::WrongFalse
        );
        assert_eq!(
            judge_line(p, &f, "FALSE(valid-deref)"),
            Category::WrongFalse
        );
        assert_eq!(judge_line(p, &f, "UNKNOWN"), Category::Unknown);
    }

    #[test]
    fn judges_memsafety_subproperties() {
        let p = Property::ValidMemsafety;
        let memtrack = expected(false, Some("valid-memtrack"));
        assert_eq!(
            judge_line(p, &memtrack, "FALSE(valid-memtrack)"),
            Category::CorrectFalse
        );
        assert_eq!(
            judge_line(p, &memtrack, "FALSE(valid-deref)"),
            Category::WrongFalse
        );
        assert_eq!(
            judge_line(p, &memtrack, "FALSE(valid-memcleanup)"),
            Category::WrongFalse
        );
        let any = expected(false, None);
        assert_eq!(
            judge_line(p, &any, "FALSE(valid-free)"),
            Category::CorrectFalse
        );
        assert_eq!(
            judge_line(p, &any, "FALSE(unreach-call)"),
            Category::WrongFalse
        );
        assert_eq!(
            judge_line(p, &expected(true, None), "FALSE(valid-free)"),
            Category::WrongFalse
        );
    }

    #[test]
    fn judges_memcleanup() {
        let p = Property::ValidMemcleanup;
        let f = expected(false, None);
        assert_eq!(
            judge_line(p, &f, "FALSE(valid-memcleanup)"),
            Category::CorrectFalse
        );
        assert_eq!(
            judge_line(p, &f, "FALSE(valid-memtrack)"),
            Category::WrongFalse
        );
        assert_eq!(
            judge_line(p, &expected(true, None), "TRUE"),
            Category::CorrectTrue
        );
    }
}
