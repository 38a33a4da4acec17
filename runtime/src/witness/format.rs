//! The entries of a 2.0 witness as typed values, written and read with serde, and the rules
//! of the format that a schema cannot state (one `follow` waypoint ending each segment, one
//! `target`, ending the last segment).
//!
//! Consumes witness text or entries; produces YAML text, parsed entries, or the first rule a
//! witness breaks.

use super::{FORMAT_VERSION, Meta};
use serde::{Deserialize, Serialize};

/// One entry of a witness file (a witness is a YAML list of them).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry<C> {
    /// `violation_sequence` or `invariant_set`.
    pub entry_type: String,
    /// Producer and task.
    pub metadata: Metadata,
    /// Segments or invariants.
    pub content: C,
}

/// The metadata every entry carries.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    /// `"2.0"`.
    pub format_version: String,
    /// An RFC 4122 UUID.
    pub uuid: String,
    /// ISO 8601.
    pub creation_time: String,
    /// The tool.
    pub producer: Producer,
    /// The verification task.
    pub task: TaskInfo,
}

/// The tool that wrote the witness.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Producer {
    /// Name.
    pub name: String,
    /// Version.
    pub version: String,
    /// Configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    /// A bash command line that reproduces the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_line: Option<String>,
    /// Anything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The task the witness is for.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskInfo {
    /// The program's files.
    pub input_files: Vec<String>,
    /// SHA-256 of each input file.
    pub input_file_hashes: std::collections::BTreeMap<String, String>,
    /// The specification, in SV-COMP's property syntax.
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// `C`.
    pub language: String,
}

/// A place in the program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    /// The file.
    pub file_name: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// The function containing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// A segment of a violation sequence.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// Its waypoints, the `follow` one last.
    pub segment: Vec<WaypointItem>,
}

/// The one-key mapping that wraps a waypoint.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaypointItem {
    /// The waypoint.
    pub waypoint: Waypoint,
}

/// A waypoint.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waypoint {
    /// `assumption`, `branching`, `function_enter`, `function_return` or `target`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `follow` or `avoid`.
    pub action: String,
    /// The constraint (`\result == 3`, `true`, `x > 0`), by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Constraint>,
    /// Where.
    pub location: Location,
}

/// A waypoint's constraint.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraint {
    /// The expression (or `true`/`false` for a branching).
    pub value: String,
    /// `c_expression` or `acsl_expression`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// The one-key mapping that wraps an invariant.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvariantItem {
    /// The invariant.
    pub invariant: Invariant,
}

/// A located invariant.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invariant {
    /// `loop_invariant` or `location_invariant`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Where it holds.
    pub location: Location,
    /// A side-effect-free C expression.
    pub value: String,
    /// `c_expression`.
    pub format: String,
}

impl Metadata {
    /// The metadata of a witness written now; `content` seeds its UUID.
    pub fn new(meta: &Meta, content: &str) -> Metadata {
        let task = TaskInfo {
            input_files: vec![meta.file_name.clone()],
            input_file_hashes: [(meta.file_name.clone(), meta.hash.clone())].into(),
            specification: meta.specification.clone(),
            data_model: meta.data_model.into(),
            language: "C".into(),
        };
        let time = super::now_iso8601();
        Metadata {
            format_version: FORMAT_VERSION.into(),
            uuid: super::uuid_of(&format!(
                "{}{}{content}{time}",
                meta.hash, meta.specification
            )),
            creation_time: time,
            producer: Producer {
                name: "shapecheck".into(),
                version: meta.version.clone(),
                configuration: None,
                command_line: meta.command_line.clone(),
                description: None,
            },
            task,
        }
    }
}

/// A witness file of one entry, as YAML.
pub fn write<C: Serialize>(entry: &Entry<C>) -> String {
    serde_yaml::to_string(&[entry]).unwrap_or_else(|e| format!("# cannot write: {e}\n"))
}

/// Reads a violation witness and checks the rules of the format on it.
pub fn read_violation(text: &str) -> Result<Vec<Entry<Vec<Segment>>>, String> {
    let entries: Vec<Entry<Vec<Segment>>> =
        serde_yaml::from_str(text).map_err(|e| format!("not a 2.0 violation witness: {e}"))?;
    if entries.is_empty() {
        return Err("a witness with no entry".into());
    }
    for e in &entries {
        check_metadata(e, "violation_sequence")?;
        check_segments(&e.content)?;
    }
    Ok(entries)
}

/// Reads a correctness witness and checks the rules of the format on it.
pub fn read_correctness(text: &str) -> Result<Vec<Entry<Vec<InvariantItem>>>, String> {
    let entries: Vec<Entry<Vec<InvariantItem>>> =
        serde_yaml::from_str(text).map_err(|e| format!("not a 2.0 correctness witness: {e}"))?;
    if entries.is_empty() {
        return Err("a witness with no entry".into());
    }
    for e in &entries {
        check_metadata(e, "invariant_set")?;
        for i in &e.content {
            let i = &i.invariant;
            if !matches!(i.kind.as_str(), "loop_invariant" | "location_invariant") {
                return Err(format!("unknown invariant type `{}`", i.kind));
            }
            if i.format != "c_expression" {
                return Err(format!("unknown invariant format `{}`", i.format));
            }
            check_location(&i.location)?;
        }
    }
    Ok(entries)
}

fn check_metadata<C>(e: &Entry<C>, kind: &str) -> Result<(), String> {
    let m = &e.metadata;
    if e.entry_type != kind {
        return Err(format!("entry type `{}`, expected `{kind}`", e.entry_type));
    }
    if m.format_version != FORMAT_VERSION {
        return Err(format!("format_version `{}`", m.format_version));
    }
    if !matches!(m.task.data_model.as_str(), "ILP32" | "LP64") || m.task.language != "C" {
        return Err("data_model must be ILP32 or LP64 and language C".into());
    }
    for f in &m.task.input_files {
        let h = m
            .task
            .input_file_hashes
            .get(f)
            .ok_or("an input file without hash")?;
        if h.len() != 64 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("`{h}` is not a SHA-256"));
        }
    }
    Ok(())
}

fn check_location(l: &Location) -> Result<(), String> {
    if l.line == 0 || l.column == Some(0) {
        return Err(format!(
            "line {} column {:?}: both are 1-based",
            l.line, l.column
        ));
    }
    Ok(())
}

/// Each segment: `avoid` waypoints, then one `follow` waypoint; one `target`, ending the
/// last segment; constraints as each waypoint type requires.
fn check_segments(segments: &[Segment]) -> Result<(), String> {
    if segments.is_empty() {
        return Err("a violation sequence needs at least one segment".into());
    }
    for (i, s) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let Some((follow, avoids)) = s.segment.split_last() else {
            return Err(format!("segment {} is empty", i + 1));
        };
        if follow.waypoint.action != "follow" || avoids.iter().any(|w| w.waypoint.action != "avoid")
        {
            return Err(format!(
                "segment {} must end with its only `follow` waypoint",
                i + 1
            ));
        }
        for w in &s.segment {
            check_waypoint(&w.waypoint)?;
        }
        let target = follow.waypoint.kind == "target";
        if target != last {
            return Err("exactly one `target` waypoint, ending the last segment".into());
        }
        if avoids.iter().any(|w| w.waypoint.kind == "target") {
            return Err("a `target` waypoint must be followed".into());
        }
    }
    Ok(())
}

fn check_waypoint(w: &Waypoint) -> Result<(), String> {
    check_location(&w.location)?;
    let needs = match w.kind.as_str() {
        "assumption" | "branching" | "function_return" => true,
        "function_enter" | "target" => false,
        other => return Err(format!("unknown waypoint type `{other}`")),
    };
    if needs != w.constraint.is_some() {
        return Err(format!(
            "a `{}` waypoint {} a constraint",
            w.kind,
            match needs {
                true => "needs",
                false => "takes no",
            }
        ));
    }
    if let Some(c) = &w.constraint {
        let ok = match w.kind.as_str() {
            "branching" => c.format.is_none() || c.format.as_deref() == Some("c_expression"),
            "function_return" => {
                c.format.as_deref() == Some("acsl_expression") && c.value.starts_with("\\result")
            }
            _ => c.format.as_deref() == Some("c_expression"),
        };
        if !ok {
            return Err(format!(
                "the constraint of a `{}` waypoint: `{}`",
                w.kind, c.value
            ));
        }
    }
    if !matches!(w.action.as_str(), "follow" | "avoid") {
        return Err(format!("unknown action `{}`", w.action));
    }
    Ok(())
}
