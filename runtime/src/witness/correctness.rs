//! Correctness witnesses: the invariants a TRUE's certificate can state in C, as an
//! `invariant_set`.
//!
//! Consumes the [`LocatedInvariant`]s an engine attached to its certificate (each already
//! proved by that engine: a loop invariant holds at every evaluation of the loop's
//! condition); produces the witness. An engine whose certificate says nothing expressible
//! as a side-effect-free C expression (a summary of unboundedly many heap objects, a set of
//! shape graphs) gives an empty invariant set: still a valid witness, which leaves the
//! validator to find its own proof.

use super::Meta;
use super::format::{Entry, Invariant, InvariantItem, Location, Metadata};
use crate::program::ir::{FuncId, Program, VarId, VarKind};

/// An invariant at a place of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedInvariant {
    /// The line of the loop's keyword (`while`, `for`, `do`).
    pub line: u32,
    /// Its 1-based column.
    pub column: u32,
    /// The function containing the loop.
    pub function: String,
    /// A side-effect-free C expression over the variables in scope there.
    pub value: String,
}

/// The correctness witness stating `invariants` as loop invariants, as YAML.
pub fn witness(meta: &Meta, invariants: &[LocatedInvariant]) -> String {
    let content: Vec<InvariantItem> = invariants
        .iter()
        .map(|i| InvariantItem {
            invariant: Invariant {
                kind: "loop_invariant".into(),
                location: Location {
                    file_name: meta.file_name.clone(),
                    line: i.line,
                    column: (i.column > 0).then_some(i.column),
                    function: Some(i.function.clone()),
                },
                value: i.value.clone(),
                format: "c_expression".into(),
            },
        })
        .collect();
    let seed = format!("{invariants:?}");
    super::format::write(&Entry {
        entry_type: "invariant_set".into(),
        metadata: Metadata::new(meta, &seed),
        content,
    })
}

/// The name by which C code in function `f` refers to variable `x`, if it can: a plain
/// identifier (not a compiler temporary or a mangled `static` local), a local or parameter of
/// `f` or a global, and not shared with another local or parameter of `f` (which C scoping
/// would pick depending on where the invariant stands).
pub fn c_name(prog: &Program, x: VarId, f: FuncId) -> Option<String> {
    let info = prog.var(x);
    let mine = match info.kind {
        VarKind::Local(g) => g == f,
        VarKind::Global => true,
    };
    let plain = info
        .name
        .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && info
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !info.name.starts_with("__");
    let func = prog.func(f);
    let shadowed =
        (func.params.iter().chain(&func.locals)).any(|&w| w != x && prog.var(w).name == info.name);
    (mine && plain && !shadowed).then(|| info.name.clone())
}
