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
