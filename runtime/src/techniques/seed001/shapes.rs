//! Which structs of a program are list cells for the list domains of seed 001.
//!
//! Consumes the program's struct definitions; produces one [`ListShape`] per complete struct
//! with exactly one pointer field to its own type (the link), whose data field is its first
//! integer field that is not a bit-field (none if it has none). Structs with two links
//! (doubly-linked lists, trees) get no shape: their cells stay cells, never summarised.

use super::heap::ListShape;
use crate::program::ir::{Program, StructId, Type};

/// The list shapes of `prog`.
pub fn list_shapes(prog: &Program) -> Vec<ListShape> {
    (0..prog.structs.len() as u32)
        .map(StructId)
        .filter_map(|ty| shape_of(prog, ty))
        .collect()
}

fn shape_of(prog: &Program, ty: StructId) -> Option<ListShape> {
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
    let data = (s.fields.iter()).position(|f| matches!(f.ty, Type::Int(_)) && f.bits.is_none());
    Some(ListShape {
        ty,
        link: *link,
        data,
    })
}
