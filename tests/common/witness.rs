//! Checks shared by the tests that read witnesses: the JSON schema of format 2.0
//! (runtime/src/witness/schema-2.0.json) and the format's own rules.

use shapecheck_runtime::witness::format;

/// Every way `text` breaks the 2.0 schema or the format's rules, as one message per way.
pub fn problems(text: &str) -> Vec<String> {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../runtime/src/witness/schema-2.0.json"))
            .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let value: serde_json::Value = match serde_yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![format!("not YAML: {e}")],
    };
    let mut out: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("schema: {e} at {}", e.instance_path()))
        .collect();
    let kind = value
        .get(0)
        .and_then(|e| e.get("entry_type"))
        .and_then(|t| t.as_str())
        .unwrap_or("");
    let rules = match kind {
        "violation_sequence" => format::read_violation(text).map(drop),
        _ => format::read_correctness(text).map(drop),
    };
    out.extend(rules.err());
    out
}
