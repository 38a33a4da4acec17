//! SV-COMP task definitions: finding `.yml` files and turning each into (task, property) pairs.
//!
//! A task definition (format_version '2.0') names its `input_files` (a string or a list,
//! relative to the yml's folder) and a list of `properties`, each with a `property_file`, an
//! optional `expected_verdict` and, for valid-memsafety, an optional `subproperty`. Only pairs
//! with an expected verdict and a supported property file become runnable [`Pair`]s; the rest
//! are counted in [`Skipped`].

use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

/// A property whose verdicts this runner can score, recognized by its property file's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// `unreach-call.prp`: `reach_error()` is never called.
    UnreachCall,
    /// `valid-memsafety.prp`: valid-deref, valid-free and valid-memtrack.
    ValidMemsafety,
    /// `valid-memcleanup.prp`: all memory is freed at program exit.
    ValidMemcleanup,
}

impl Property {
    /// The property that a property file checks, by the file's base name.
    pub fn from_file(path: &Path) -> Option<Property> {
        match path.file_name()?.to_str()? {
            "unreach-call.prp" => Some(Property::UnreachCall),
            "valid-memsafety.prp" => Some(Property::ValidMemsafety),
            "valid-memcleanup.prp" => Some(Property::ValidMemcleanup),
            _ => None,
        }
    }

    /// The property's SV-COMP name, e.g. `unreach-call`.
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::ValidMemsafety => "valid-memsafety",
            Property::ValidMemcleanup => "valid-memcleanup",
        }
    }
}

/// The verdict a task definition expects for one property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// `true` when the property holds.
    pub verdict: bool,
    /// The violated subproperty (e.g. `valid-memtrack`), when the definition names one.
    pub subproperty: Option<String>,
}

impl Expected {
    /// Renders the expectation as `true`, `false` or `false(SUBPROPERTY)`.
    pub fn render(&self) -> String {
        match (self.verdict, &self.subproperty) {
            (true, _) => "true".to_string(),
            (false, None) => "false".to_string(),
            (false, Some(sub)) => format!("false({sub})"),
        }
    }
}

/// One runnable (task, property) pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The task definition (.yml) as found.
    pub task: PathBuf,
    /// The name of the folder holding the task definition.
    pub folder: String,
    /// The input files, resolved against the task's folder.
    pub inputs: Vec<PathBuf>,
    /// The property to check.
    pub property: Property,
    /// The property file, resolved against the task's folder.
    pub property_file: PathBuf,
    /// The expected verdict.
    pub expected: Expected,
    /// The task's data model (`options: data_model:`), `ILP32` when absent.
    pub data_model: String,
}

/// Property entries of task definitions that are not run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Entries whose property file is not one of the supported [`Property`] files.
    pub unsupported_property: usize,
    /// Supported entries without an `expected_verdict`.
    pub no_expected_verdict: usize,
}

impl Skipped {
    /// Adds another tally to this one.
    pub fn add(&mut self, other: Skipped) {
        self.unsupported_property += other.unsupported_property;
        self.no_expected_verdict += other.no_expected_verdict;
    }

    /// All skipped entries.
    pub fn total(&self) -> usize {
        self.unsupported_property + self.no_expected_verdict
    }
}

/// The runnable pairs of one task definition, and what it skipped.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TaskPairs {
    /// Pairs in the order of the definition's `properties`.
    pub pairs: Vec<Pair>,
    /// Entries that are not run.
    pub skipped: Skipped,
}

/// A task definition that cannot be used, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskError {
    /// The task definition.
    pub task: PathBuf,
    /// What is wrong with it.
    pub message: String,
}

#[derive(Deserialize)]
struct RawTask {
    format_version: String,
    input_files: InputFiles,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    options: RawOptions,
}

#[derive(Deserialize, Default)]
struct RawOptions {
    data_model: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum InputFiles {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct RawProperty {
    property_file: String,
    expected_verdict: Option<bool>,
    subproperty: Option<String>,
}

/// Parses the text of the task definition `yml` into pairs; does not check that the files exist.
pub fn parse_task(yml: &Path, text: &str) -> Result<TaskPairs, String> {
    let raw: RawTask = serde_yaml::from_str(text).map_err(|e| format!("malformed task: {e}"))?;
    if raw.format_version != "2.0" && raw.format_version != "1.0" {
        let version = raw.format_version;
        return Err(format!(
            "unsupported format_version '{version}' (expected '2.0')"
        ));
    }
    let names = match raw.input_files {
        InputFiles::One(name) => vec![name],
        InputFiles::Many(names) => names,
    };
    if names.is_empty() {
        return Err("input_files is empty".to_string());
    }
    let data_model = raw.options.data_model.unwrap_or_else(|| "ILP32".into());
    if !matches!(data_model.as_str(), "ILP32" | "LP64") {
        return Err(format!(
            "unsupported data_model '{data_model}' (expected ILP32 or LP64)"
        ));
    }
    let dir = yml.parent().unwrap_or(Path::new(""));
    let inputs: Vec<PathBuf> = names.iter().map(|name| dir.join(name)).collect();
    let mut result = TaskPairs::default();
    for entry in raw.properties {
        let property_file = dir.join(&entry.property_file);
        let Some(property) = Property::from_file(&property_file) else {
            result.skipped.unsupported_property += 1;
            continue;
        };
        let Some(verdict) = entry.expected_verdict else {
            result.skipped.no_expected_verdict += 1;
            continue;
        };
        let expected = Expected {
            verdict,
            subproperty: entry.subproperty,
        };
        result.pairs.push(Pair {
            task: yml.to_path_buf(),
            folder: folder_name(yml),
            inputs: inputs.clone(),
            property,
            property_file,
            expected,
            data_model: data_model.clone(),
        });
    }
    Ok(result)
}

/// The name of the folder holding `yml`, or `.` when it has none.
fn folder_name(yml: &Path) -> String {
    let absolute = fs::canonicalize(yml).ok();
    let path = absolute.as_deref().unwrap_or(yml);
    path.parent().and_then(Path::file_name).map_or_else(
        || ".".to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Reads and parses the task definition `yml` and checks that the files it names exist.
pub fn load_task(yml: &Path) -> Result<TaskPairs, TaskError> {
    let error = |message: String| TaskError {
        task: yml.to_path_buf(),
        message,
    };
    let text = fs::read_to_string(yml).map_err(|e| error(format!("cannot read: {e}")))?;
    let task = parse_task(yml, &text).map_err(error)?;
    for pair in &task.pairs {
        let files = pair
            .inputs
            .iter()
            .chain(std::iter::once(&pair.property_file));
        if let Some(missing) = files.into_iter().find(|file| !file.is_file()) {
            return Err(error(format!("missing file {}", missing.display())));
        }
    }
    Ok(task)
}

/// Finds the task definitions named by `paths`: files as given, folders searched recursively
/// for `.yml` files. The result is sorted and free of duplicates.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for path in paths {
        let meta =
            fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if meta.is_dir() {
            walk(path, &mut found).map_err(|e| format!("cannot search {}: {e}", path.display()))?;
        } else {
            found.push(path.clone());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

/// Adds the `.yml` files below `dir` to `found`, not following symbolic links to folders.
fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext == "yml") {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST_TASK: &str = "format_version: '2.0'
input_files:
  - 'a.i'
  - 'b.i'
properties:
  - property_file: ../properties/valid-memsafety.prp
    expected_verdict: false
    subproperty: valid-memtrack
  - property_file: ../properties/coverage-branches.prp
  - property_file: ../properties/no-overflow.prp
    expected_verdict: true
  - property_file: ../properties/unreach-call.prp
options:
  language: C
  data_model: ILP32
";

    #[test]
    fn parses_string_input_files() {
        let text = "format_version: '2.0'\ninput_files: 'x.i'\nproperties:\n  \
                    - property_file: ../p/unreach-call.prp\n    expected_verdict: true\n";
        let task = parse_task(Path::new("d/t.yml"), text).unwrap();
        assert_eq!(task.skipped, Skipped::default());
        let [pair] = task.pairs.as_slice() else {
            panic!("one pair expected")
        };
        assert_eq!(pair.inputs, vec![PathBuf::from("d/x.i")]);
        assert_eq!(pair.property, Property::UnreachCall);
        assert_eq!(pair.property_file, PathBuf::from("d/../p/unreach-call.prp"));
        assert_eq!(
            pair.expected,
            Expected {
                verdict: true,
                subproperty: None
            }
        );
        assert_eq!(pair.folder, "d");
    }

    #[test]
    fn parses_list_input_files_and_skips_entries() {
        let task = parse_task(Path::new("dir/t.yml"), LIST_TASK).unwrap();
        let [pair] = task.pairs.as_slice() else {
            panic!("one pair expected")
        };
        assert_eq!(
            pair.inputs,
            vec![PathBuf::from("dir/a.i"), PathBuf::from("dir/b.i")]
        );
        assert_eq!(pair.property, Property::ValidMemsafety);
        assert_eq!(pair.expected.render(), "false(valid-memtrack)");
        let skipped = Skipped {
            unsupported_property: 2,
            no_expected_verdict: 1,
        };
        assert_eq!(task.skipped, skipped);
    }

    #[test]
    fn rejects_malformed_tasks() {
        let yml = Path::new("t.yml");
        assert!(
            parse_task(yml, "input_files: [")
                .unwrap_err()
                .starts_with("malformed task")
        );
        assert!(parse_task(yml, "format_version: '2.0'\n").is_err());
        let old = "format_version: '3.0'\ninput_files: a.i\n";
        assert!(parse_task(yml, old).unwrap_err().contains("format_version"));
        let empty = "format_version: '2.0'\ninput_files: []\n";
        assert_eq!(parse_task(yml, empty).unwrap_err(), "input_files is empty");
    }

    #[test]
    fn recognizes_properties_by_file_name() {
        let prop = |name: &str| Property::from_file(Path::new(name));
        assert_eq!(
            prop("../x/valid-memcleanup.prp"),
            Some(Property::ValidMemcleanup)
        );
        assert_eq!(prop("valid-memsafety.prp"), Some(Property::ValidMemsafety));
        assert_eq!(prop("termination.prp"), None);
        assert_eq!(prop("coverage-error-call.prp"), None);
    }

    #[test]
    fn loads_and_discovers_tasks_on_disk() {
        let root = tempfile::tempdir().unwrap();
        let sub = root.path().join("suite");
        fs::create_dir_all(sub.join("deeper")).unwrap();
        fs::write(sub.join("a.i"), "int main(){}").unwrap();
        fs::write(sub.join("unreach-call.prp"), "CHECK").unwrap();
        let good = "format_version: '2.0'\ninput_files: a.i\nproperties:\n  \
                    - property_file: unreach-call.prp\n    expected_verdict: false\n";
        fs::write(sub.join("good.yml"), good).unwrap();
        fs::write(
            sub.join("deeper/missing.yml"),
            good.replace("a.i", "gone.i"),
        )
        .unwrap();
        fs::write(sub.join("notes.txt"), "not a task").unwrap();
        let found = discover(&[root.path().to_path_buf(), sub.join("good.yml")]).unwrap();
        assert_eq!(
            found,
            vec![sub.join("deeper/missing.yml"), sub.join("good.yml")]
        );
        assert_eq!(load_task(&found[1]).unwrap().pairs[0].folder, "suite");
        assert!(load_task(&found[0]).unwrap_err().message.contains("gone.i"));
        assert!(
            load_task(&sub.join("nope.yml"))
                .unwrap_err()
                .message
                .starts_with("cannot read")
        );
        assert!(discover(&[sub.join("nope")]).unwrap_err().contains("nope"));
    }
}
