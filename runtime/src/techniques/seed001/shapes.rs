//! Which structs of a program are list cells for the list domains of seed 001.
//!
//! Consumes the program's struct definitions; produces one [`ListShape`] per complete struct
//! with exactly one pointer field to its own type (the link), whose data field is one of its
//! integer fields that are not bit-fields (none if it has none): the first by default, the
//! `n`-th in the `n`-th choice ([`list_shapes_with`], the engine tries each in turn, as the
//! paper picks a domain per program: a map's key need not come first). Structs with two
//! links (doubly-linked lists, trees) get no shape: their cells stay cells, never summarised.

use super::domain::Params;
use super::heap::ListShape;
use crate::program::ir::{Program, StructId, Type};

/// The list shapes of `prog` in the library's SH^mls, each with its first integer field as
/// the data field.
pub fn list_shapes(prog: &Program) -> Vec<ListShape> {
    list_shapes_with(prog, 0, Params::mls())
}

/// The list shapes of `prog` in the domain `params`, each with its `choice`-th integer field
/// as the data field (its last when it has fewer).
pub fn list_shapes_with(prog: &Program, choice: usize, params: Params) -> Vec<ListShape> {
    (0..prog.structs.len() as u32)
        .map(StructId)
        .filter_map(|ty| shape_of(prog, ty, choice, params))
        .collect()
}

/// How many choices of data fields there are: the most integer fields a list shape has (at
/// least one).
pub fn data_choices(prog: &Program) -> usize {
    (0..prog.structs.len() as u32)
        .map(StructId)
        .filter(|ty| shape_of(prog, *ty, 0, Params::mls()).is_some())
        .map(|ty| int_fields(prog, ty).len())
        .max()
        .unwrap_or(0)
        .max(1)
}

/// The integer fields of a struct that are not bit-fields.
fn int_fields(prog: &Program, ty: StructId) -> Vec<usize> {
    (prog.strukt(ty).fields.iter().enumerate())
        .filter(|(_, f)| matches!(f.ty, Type::Int(_)) && f.bits.is_none())
        .map(|(i, _)| i)
        .collect()
}

fn shape_of(prog: &Program, ty: StructId, choice: usize, params: Params) -> Option<ListShape> {
    let s = prog.strukt(ty);
    if !s.complete || s.is_union {
        return None;
    }
    let own = Type::Ptr(Box::new(Type::Struct(ty)));
    let links: Vec<usize> = (s.fields.iter().enumerate())
        .filter(|(_, f)| f.ty == own)
        .map(|(i, _)| i)
        .collect();
    let [link] = links.as_slice() else {
        return None;
    };
    let ints = int_fields(prog, ty);
    let data = ints.get(choice).or(ints.last()).copied();
    Some(ListShape {
        ty,
        link: *link,
        data,
        params,
    })
}
