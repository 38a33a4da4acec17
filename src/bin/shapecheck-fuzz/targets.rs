//! The fuzz targets: their names, and for the in-process ones (`c-frontend`, `spec`) the code
//! that consumes one input. An input (bytes, read lossily as UTF-8) goes through the C front
//! end and the CFA printers, or through the spec parser, checker, printer and diagnostic
//! renderer. Each stage runs on its own named thread so that a stack overflow, which kills
//! the worker process, still names the stage in the message it prints.

use std::fmt;
use std::str::FromStr;

/// A fuzz target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// C text through `frontend::lower_source` and the CFA printers.
    CFrontend,
    /// Spec text through `shapecheck_dsl::load`, `load_all`, the printer and the renderer.
    Spec,
    /// Argument vectors for the `shapecheck` binary, run as child processes.
    Cli,
}

/// Every target, in the order `--target all` runs them.
pub const ALL: [Target; 3] = [Target::CFrontend, Target::Spec, Target::Cli];

impl Target {
    /// The target's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::CFrontend => "c-frontend",
            Target::Spec => "spec",
            Target::Cli => "cli",
        }
    }

    /// File extension of saved inputs.
    pub fn extension(self) -> &'static str {
        match self {
            Target::CFrontend => "c",
            Target::Spec => "shape",
            Target::Cli => "args",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        ALL.into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("unknown target `{s}` (c-frontend, spec, cli, all)"))
    }
}

/// The standard library's spec texts, which `load_all` gets before the fuzzed text.
const LIBRARY: [&str; 5] = [
    include_str!("../../../library/specs/predicates.shape"),
    include_str!("../../../library/specs/invariants.shape"),
    include_str!("../../../library/specs/structures.shape"),
    include_str!("../../../library/specs/templates.shape"),
    include_str!("../../../library/specs/spatial.shape"),
];

/// Runs one input through an in-process target. Panics propagate (the worker catches them);
/// `stack_bytes` is the stack of each stage's thread.
pub fn run(target: Target, input: &[u8], stack_bytes: usize) {
    let text = String::from_utf8_lossy(input).into_owned();
    match target {
        Target::CFrontend => c_frontend(text, stack_bytes),
        Target::Spec => spec(text, stack_bytes),
        Target::Cli => panic!("the cli target runs child processes, not in a worker"),
    }
}

/// Runs `f` on a thread named `stage` and re-raises its panic in the caller.
fn stage<T: Send>(name: &str, stack_bytes: usize, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(stack_bytes)
            .spawn_scoped(s, f)
            .expect("spawn a stage thread");
        match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    })
}

fn c_frontend(text: String, stack: usize) {
    use shapecheck_runtime::program::{cfa, frontend};
    let prog = stage("lower_source", stack, move || {
        let src = frontend::Source::from_text(text, "fuzz.c");
        frontend::lower_source(&src, "fuzz.c").map_err(|e| e.to_string())
    });
    if let Ok(p) = prog {
        let p = &p;
        stage("cfa::listing", stack, || {
            std::hint::black_box(cfa::listing(p))
        });
        stage("cfa::dot", stack, || std::hint::black_box(cfa::dot(p)));
    }
}

fn spec(text: String, stack: usize) {
    use shapecheck_dsl::{diag, parser, print};
    let t = &text;
    let ast = stage("parse", stack, || parser::parse(t));
    match ast {
        Ok(ast) => {
            let ast = &ast;
            let printed = stage("print", stack, || print::print(ast));
            let p = &printed;
            stage("reparse", stack, || parser::parse(p).map(|_| ()).ok());
            let checked = stage("load", stack, || shapecheck_dsl::load(t));
            match checked {
                Ok(ir) => {
                    stage("show_ir", stack, || print::show_ir(&ir));
                }
                Err(d) => {
                    stage("render_all", stack, || {
                        diag::render_all(&d, "fuzz.shape", t)
                    });
                }
            }
        }
        Err(d) => {
            stage("render", stack, || d.render("fuzz.shape", t));
        }
    }
    let joined = stage("load_all", stack, || {
        let mut all = LIBRARY.to_vec();
        all.push(t);
        shapecheck_dsl::load_all(&all)
            .err()
            .map(|d| (d, all.join("\n")))
    });
    if let Some((d, whole)) = joined {
        stage("render_all(library)", stack, || {
            diag::render_all(&d, "library+fuzz.shape", &whole)
        });
    }
}
