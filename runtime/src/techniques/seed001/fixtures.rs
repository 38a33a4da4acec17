//! Test fixtures of the seed-001 modules: one list shape (`struct node { next; data; }` as
//! struct 0) and constructors of its terms and cells.

use super::domain::Params;
use super::heap::{Cell, ListShape, Term};
use crate::program::ir::{StructId, VarId};

/// The list shape of struct 0: link field 0, data field 1.
pub const SHAPES: [ListShape; 1] = [ListShape {
    ty: StructId(0),
    link: 0,
    data: Some(1),
    params: Params::mls(),
}];

/// Program variable `i`.
pub fn var(i: u32) -> Term {
    Term::Var(VarId(i))
}

/// `addr ↦ {next, data}`.
pub fn node(addr: Term, next: Term, data: Term) -> Cell {
    Cell {
        addr,
        ty: StructId(0),
        fields: vec![next, data],
    }
}
