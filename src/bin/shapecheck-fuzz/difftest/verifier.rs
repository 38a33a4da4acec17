//! Running `shapecheck verify PROG --check P --timeout T --format json` on a generated program:
//! the verdict in, an [`Answer`] out (TRUE, FALSE with the violated property and the
//! counterexample's inputs, UNKNOWN with a reason category, or a crash: an exit code other
//! than 0, a signal, a wall-clock overrun or unreadable output).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// shapecheck's answer for one property.
#[derive(Clone, Debug)]
pub enum Answer {
    /// TRUE.
    True,
    /// FALSE(property) with the concrete inputs of the counterexample.
    False {
        /// The violated property (`valid-deref`, ...).
        property: String,
        /// The inputs, in order of use.
        inputs: Vec<i64>,
    },
    /// UNKNOWN with a reason category.
    Unknown(String),
    /// Not a verdict: what happened.
    Crash(String),
}

/// How to run shapecheck.
pub struct Verifier {
    /// The binary.
    pub binary: std::path::PathBuf,
    /// `--timeout`.
    pub timeout: f64,
    /// Pass `--data-model LP64` (the binary supports it).
    pub lp64: bool,
    /// Further arguments.
    pub extra: Vec<String>,
}

impl Verifier {
    /// A verifier; asks the binary whether it knows `--data-model`.
    pub fn new(binary: std::path::PathBuf, timeout: f64) -> Verifier {
        let help = Command::new(&binary).args(["verify", "--help"]).output();
        let lp64 = help.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("--data-model"));
        Verifier {
            binary,
            timeout,
            lp64,
            extra: vec![],
        }
    }

    /// Verifies `prog` for `property`; also returns the raw output.
    pub fn verify(&self, prog: &Path, property: &str) -> (Answer, String) {
        let mut cmd = Command::new(&self.binary);
        cmd.arg("verify")
            .arg(prog)
            .args(["--check", property, "--format", "json"])
            .arg(format!("--timeout={}", self.timeout));
        if self.lp64 {
            cmd.args(["--data-model", "LP64"]);
        }
        cmd.args(&self.extra);
        let limit = Duration::from_secs_f64(self.timeout * 2.0 + 30.0);
        let out = match crate::difftest::output_with_limit(cmd, limit) {
            Ok(Some(o)) => o,
            Ok(None) => {
                return (
                    Answer::Crash(format!("no answer within {limit:?}")),
                    String::new(),
                );
            }
            Err(e) => {
                return (
                    Answer::Crash(format!("cannot run shapecheck: {e}")),
                    String::new(),
                );
            }
        };
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let raw = format!("{stdout}\n--- stderr ---\n{stderr}");
        if out.status.code() != Some(0) {
            let how = crate::worker::describe_status(out.status);
            let first = stderr
                .lines()
                .find(|l| l.contains("panicked") || l.contains("error"))
                .unwrap_or("");
            return (Answer::Crash(format!("{how}: {first}")), raw);
        }
        (parse(&stdout), raw)
    }
}

fn parse(stdout: &str) -> Answer {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(stdout.trim()) else {
        return Answer::Crash("output is not JSON".into());
    };
    let verdict = v["verdict"].as_str().unwrap_or("");
    if verdict == "TRUE" {
        Answer::True
    } else if verdict.starts_with("FALSE") {
        let property = v["violation"]["property"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        let inputs = v["trace"]["inputs"]
            .as_array()
            .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect())
            .unwrap_or_default();
        Answer::False { property, inputs }
    } else if verdict == "UNKNOWN" {
        let reason = v["reasons"][0].as_str().unwrap_or("no reason given");
        let shape = v["shape_analysis"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .filter_map(|l| l.as_str())
                    .find(|l| l.starts_with("reason:"))
            })
            .map(|l| {
                let l = l.trim_start_matches("reason:").trim();
                let l = l.trim_start_matches("shape analysis:").trim();
                format!(
                    "; shape: {}",
                    category(
                        l.split([':'])
                            .next()
                            .unwrap_or(l)
                            .split(" on ")
                            .next()
                            .unwrap_or(l)
                    )
                )
            })
            .unwrap_or_default();
        Answer::Unknown(format!("{}{shape}", category(reason)))
    } else {
        Answer::Crash(format!("unexpected verdict `{verdict}`"))
    }
}

/// A reason's category: its text up to the first `(`, numbers as `N`.
fn category(reason: &str) -> String {
    let head = reason.split('(').next().unwrap_or(reason).trim();
    crate::worker::numbers_as_n(head).chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_false_with_inputs() {
        let a = parse(
            r#"{"verdict":"FALSE(valid-free)","violation":{"property":"valid-free"},"trace":{"inputs":[1,0,-3]}}"#,
        );
        match a {
            Answer::False { property, inputs } => {
                assert_eq!(property, "valid-free");
                assert_eq!(inputs, vec![1, 0, -3]);
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(parse(r#"{"verdict":"UNKNOWN","reasons":["bound reached: 12 steps"]}"#), Answer::Unknown(c) if c == "bound reached: N steps")
        );
    }
}
