//! The engine seam from outside the CLI: a small engine written here, against the public
//! [`Engine`] and [`Refinement`] interfaces only, gets the shared feasibility check (concrete
//! replay of FALSE, unsat cores of spurious paths) and the refinement loop for free.
//!
//! The toy engine enumerates the program's paths to an error call (a depth-first search over
//! the CFAs, calls followed; it gives up on loops and recursion). Its precision is the set of
//! paths shown infeasible; its proof, that every path to an error call is in that set, which
//! it re-checks by enumerating again. It is a bounded model checker in miniature, enough to
//! show that a fifth engine plugs in without touching the runtime.

use petgraph::visit::EdgeRef;
use shapecheck_runtime::engine::domain::Compiled;
use shapecheck_runtime::engine::feasibility::Core;
use shapecheck_runtime::engine::refine::{self, Exploration, Outcome, Refinement};
use shapecheck_runtime::engine::{Budget, Certificate, Engine, Run, Task, Verdict};
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::ir::{Builtin, Callee, FuncId, Op, Program};
use shapecheck_runtime::program::path::{PathEnd, PathStep};
use shapecheck_runtime::program::property::{Property, PropertySet};
use std::collections::HashSet;
use std::io::Write;

static LIBRARY: Compiled = Compiled {
    tables: &shapecheck_library::COMPILED,
    name: "standard library",
};

/// At most this many steps on one path.
const MAX_DEPTH: usize = 400;

/// The toy engine's state: paths shown infeasible.
#[derive(Default)]
struct Paths {
    infeasible: HashSet<Vec<PathStep>>,
    refinements: usize,
}

/// Every path from the initialiser's entry to an error call, or `Err` on a loop or recursion.
fn error_paths(prog: &Program) -> Result<Vec<Vec<PathStep>>, String> {
    let mut out = vec![];
    let init = prog.func(prog.init);
    let start = vec![(prog.init, init.entry)];
    walk(prog, start, &mut vec![], &mut out)?;
    Ok(out)
}

fn walk(
    prog: &Program,
    stack: Vec<(FuncId, petgraph::graph::NodeIndex)>,
    path: &mut Vec<PathStep>,
    out: &mut Vec<Vec<PathStep>>,
) -> Result<(), String> {
    if path.len() > MAX_DEPTH {
        return Err(format!("a path longer than {MAX_DEPTH} steps (a loop?)"));
    }
    let Some(&(f, loc)) = stack.last() else {
        return Ok(());
    };
    let func = prog.func(f);
    for e in func.cfa.edges(loc) {
        path.push(PathStep {
            func: f,
            edge: e.id(),
        });
        let mut next = stack.clone();
        if let Some(top) = next.last_mut() {
            top.1 = e.target();
        }
        match &e.weight().op {
            Op::Call {
                callee: Callee::Builtin(Builtin::Error(_)),
                ..
            } => out.push(path.clone()),
            Op::Call {
                callee: Callee::Func(g),
                ..
            } if prog.func(*g).defined => {
                if next.iter().any(|(h, _)| h == g) {
                    return Err("recursion".into());
                }
                next.push((*g, prog.func(*g).entry));
                walk(prog, next, path, out)?;
            }
            Op::Return(_) => {
                next.pop();
                walk(prog, next, path, out)?;
            }
            Op::CallPtr { .. } | Op::Unsupported(_) => {
                return Err("a construct the toy engine does not follow".into());
            }
            _ => walk(prog, next, path, out)?,
        }
        path.pop();
    }
    Ok(())
}

impl Refinement for Paths {
    type Proof = usize;

    fn explore(&mut self, task: &Task) -> Exploration<usize> {
        let paths = match error_paths(task.program) {
            Ok(p) => p,
            Err(why) => return Exploration::Incomplete(why),
        };
        match paths.into_iter().find(|p| !self.infeasible.contains(p)) {
            Some(path) => Exploration::Counterexample {
                path,
                end: PathEnd::ErrorCall,
                message: "an error call is reachable in the CFA".into(),
            },
            None => Exploration::Proof(self.infeasible.len()),
        }
    }

    fn refine(&mut self, _: &Task, path: &[PathStep], core: &Core) -> Result<(), String> {
        if core.steps.is_empty() {
            return Err("an empty core".into());
        }
        self.refinements += 1;
        match self.infeasible.insert(path.to_vec()) {
            true => Ok(()),
            false => Err("the same path twice".into()),
        }
    }
}

struct PathEngine;

impl Engine for PathEngine {
    fn name(&self) -> &'static str {
        "paths"
    }

    fn supports(&self, properties: &PropertySet) -> Result<(), String> {
        match properties.has(Property::UnreachCall) {
            true => Ok(()),
            false => Err("the path engine checks unreach-call only".into()),
        }
    }

    fn run(&self, task: &Task) -> Run {
        let mut state = Paths::default();
        let verdict = match refine::run(&mut state, task, 32) {
            Outcome::Proved(n) => {
                // Re-check: every error path is one the feasibility check refuted.
                let again = error_paths(task.program).unwrap_or_default();
                assert!(again.iter().all(|p| state.infeasible.contains(p)));
                Verdict::True(Certificate {
                    summary: format!("{n} error paths, each infeasible"),
                    invariants: Vec::new(),
                })
            }
            Outcome::Refuted(cex) => Verdict::False(cex),
            Outcome::Unknown(why) => Verdict::Unknown(vec![why]),
        };
        let mut run = Run::new(self.name(), verdict);
        run.details = vec![format!("{} refinements", state.refinements)];
        run
    }
}

const HEADER: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n";

fn load(body: &str) -> Program {
    let mut f = tempfile::Builder::new()
        .suffix(".c")
        .tempfile()
        .expect("temp file");
    write!(f, "{HEADER}{body}").expect("write");
    frontend::load(f.path()).expect("parses")
}

fn run(body: &str) -> Run {
    let prog = load(body);
    let props = PropertySet::parse_list("unreach-call").expect("property");
    let task = Task {
        program: &prog,
        properties: &props,
        domain: &LIBRARY,
        budget: Budget::run(),
    };
    PathEngine.run(&task)
}

#[test]
fn contradictory_guards_are_refuted_and_proved() {
    let r = run("int check(int x) { return x > 5; }\n\
         int main(void) {\n\
           int x = __VERIFIER_nondet_int();\n\
           if (check(x) && x < 3) reach_error();\n\
           if (x == 7 && x != 7) reach_error();\n\
           return 0;\n\
         }\n");
    let Verdict::True(c) = &r.verdict else {
        panic!("expected TRUE, got {:?}", r.verdict);
    };
    // Both error calls are reached on several CFA paths (the `&&` branches), each refuted once.
    let n: usize = c.summary.split(' ').next().unwrap().parse().unwrap();
    assert!(n >= 2, "{}", c.summary);
    assert_eq!(r.details, [format!("{n} refinements")]);
}

#[test]
fn a_feasible_error_path_is_a_replayed_counterexample() {
    let r = run("int check(int x) { return x > 5; }\n\
         int main(void) {\n\
           int x = __VERIFIER_nondet_int();\n\
           if (x == 7 && x != 7) reach_error();\n\
           if (check(x) && x < 9) reach_error();\n\
           return 0;\n\
         }\n");
    let Verdict::False(cex) = &r.verdict else {
        panic!("expected FALSE, got {:?}", r.verdict);
    };
    // The replay reached the error with an input the check let through.
    assert!(cex.trace.violation.is_some());
    assert!(
        cex.trace.inputs.iter().any(|&x| x > 5 && x < 9),
        "{:?}",
        cex.trace.inputs
    );
    assert_eq!(cex.violation.line, 7);
}

#[test]
fn loops_are_unknown_with_the_engines_reason() {
    let r = run("int main(void) {\n\
           while (__VERIFIER_nondet_int()) {}\n\
           reach_error();\n\
           return 0;\n\
         }\n");
    let Verdict::Unknown(why) = &r.verdict else {
        panic!("expected UNKNOWN, got {:?}", r.verdict);
    };
    assert!(why[0].contains("a loop?"), "{why:?}");
}

#[test]
fn other_properties_are_not_supported() {
    let props = PropertySet::parse_list("valid-memtrack").expect("property");
    assert!(PathEngine.supports(&props).is_err());
}
