//! Variables whose address is taken, and struct variables, as heap cells: separation
//! logic's stack cells.
//!
//! Consumes the inlined program ([`Flat`]); produces it rewritten so that each scalar
//! variable `v` whose address the program takes (`&v`, as in `push(&head, x)`) lives in a
//! cell of its own: a one-field struct `box` allocated at the entry and pointed to by a new
//! variable `&v`. Every read or write of `v` becomes one of `(&v)->val`, and `&v` becomes the
//! new variable, so `*p` for `p == &v` is a load from that cell (the executor reads a scalar
//! through a pointer at a cell's first field). A variable of struct type (a sentinel node
//! declared as a global, as FreeRTOS declares its list end) becomes a cell of its own struct
//! the same way: `s.f` becomes `(&s)->f`. The cells are never freed; `free` of one is a fault
//! ([`is_box`], [`is_variable_cell`]). And an allocation into a `char *` makes a block of
//! bytes ([`add_byte_block`]). A pointer to a local that outlives it is not a fault here, so the
//! engine makes these cells only when neither valid-deref nor valid-free is checked.

use crate::program::ir::{
    AllocKind, Builtin, Callee, CmpOp, Expr, ExprKind, Field, IntTy, Op, Program, StructDef,
    StructId, Type, VarId, VarInfo,
};
use crate::techniques::seed002::flat::{FEdge, Flat};
use std::collections::BTreeMap;

/// The name prefix of the box structs (no C struct name has a space).
const BOX: &str = "box of ";

/// The name of the struct of byte blocks.
const BYTES: &str = "block of bytes";

/// Adds the struct a `char *` allocation makes: a block of bytes of which the engine models
/// the first (the frontend's heap holders keep such a block, and write its first byte on
/// every access as a check that it is live, see `program::holder`); an access at any other
/// offset needs pointer arithmetic, outside the fragment.
pub fn add_byte_block(flat: &mut Flat) {
    flat.prog.structs.push(StructDef {
        name: BYTES.into(),
        is_union: false,
        fields: vec![Field {
            name: "byte".into(),
            ty: Type::Int(IntTy::CHAR),
            offset: 0,
            bits: None,
        }],
        size: 1,
        align: 1,
        complete: true,
    });
}

/// The struct of byte blocks, if the program has it.
pub fn byte_block(prog: &Program) -> Option<StructId> {
    let i = prog.structs.iter().position(|s| s.name == BYTES)?;
    Some(StructId(i as u32))
}

/// Whether `s` is a scalar variable's box.
pub fn is_box(prog: &Program, s: StructId) -> bool {
    prog.strukt(s).name.starts_with(BOX)
}

/// The name prefix of the pointers to variables' cells (no C identifier starts with `&`).
const CELL: &str = "&";

/// Whether `p` points to a variable's cell (a box, or a struct variable's cell).
pub fn is_variable_cell(prog: &Program, p: VarId) -> bool {
    prog.var(p).name.starts_with(CELL)
}

/// A boxed variable: the pointer to its cell, that pointer's type, the variable's type.
struct Boxed {
    ptr: VarId,
    ptr_ty: Type,
    ty: Type,
    strukt: StructId,
}

/// Rewrites `flat`; the number of variables given cells.
pub fn box_address_taken(flat: &mut Flat) -> usize {
    let taken = variables_with_cells(flat);
    let boxes: BTreeMap<VarId, Boxed> = taken.into_iter().map(|v| (v, add_box(flat, v))).collect();
    if boxes.is_empty() {
        return 0;
    }
    for e in &mut flat.edges {
        e.op = rewrite_op(&e.op, &boxes);
    }
    allocate_at_entry(flat, &boxes);
    boxes.len()
}

/// The variables that get cells: scalars whose address some edge takes, and variables of a
/// complete struct type that some edge reads or writes.
fn variables_with_cells(flat: &Flat) -> Vec<VarId> {
    let mut out = vec![];
    for e in &flat.edges {
        for x in e.op.exprs() {
            x.visit(&mut |y| {
                if let Some(v) = needs_cell(&flat.prog, y)
                    && !out.contains(&v)
                {
                    out.push(v);
                }
            });
        }
    }
    out
}

/// The variable an expression shows needs a cell: `&v` of a scalar `v`, or a struct variable.
fn needs_cell(prog: &Program, y: &Expr) -> Option<VarId> {
    match &y.kind {
        ExprKind::AddrOf(inner) => match inner.kind {
            ExprKind::Var(v) if prog.var(v).ty.is_scalar() => Some(v),
            _ => None,
        },
        ExprKind::Var(v) => match prog.var(*v).ty {
            Type::Struct(s) if prog.strukt(s).complete && !prog.strukt(s).is_union => Some(*v),
            _ => None,
        },
        _ => None,
    }
}

/// The cell for `v` (a one-field struct for a scalar, its own struct for a struct variable)
/// and the variable pointing to it.
fn add_box(flat: &mut Flat, v: VarId) -> Boxed {
    let info = flat.prog.var(v).clone();
    if let Type::Struct(strukt) = info.ty {
        return Boxed {
            ptr: add_pointer(flat, &info, strukt),
            ptr_ty: Type::Ptr(Box::new(Type::Struct(strukt))),
            ty: info.ty,
            strukt,
        };
    }
    let size = flat.prog.size_of(&info.ty);
    flat.prog.structs.push(StructDef {
        name: format!("{BOX}{}", info.name),
        is_union: false,
        fields: vec![Field {
            name: "val".into(),
            ty: info.ty.clone(),
            offset: 0,
            bits: None,
        }],
        size,
        align: size.max(1),
        complete: true,
    });
    let strukt = StructId(flat.prog.structs.len() as u32 - 1);
    Boxed {
        ptr: add_pointer(flat, &info, strukt),
        ptr_ty: Type::Ptr(Box::new(Type::Struct(strukt))),
        ty: info.ty,
        strukt,
    }
}

/// The variable `&v` pointing to `v`'s cell of struct `strukt`.
fn add_pointer(flat: &mut Flat, info: &VarInfo, strukt: StructId) -> VarId {
    flat.prog.add_var(VarInfo {
        name: format!("{CELL}{}", info.name),
        ty: Type::Ptr(Box::new(Type::Struct(strukt))),
        kind: info.kind.clone(),
        line: info.line,
    })
}

/// The cell itself, `*(&v)`.
fn deref(b: &Boxed) -> Expr {
    Expr {
        kind: ExprKind::Deref(Box::new(Expr {
            kind: ExprKind::Var(b.ptr),
            ty: b.ptr_ty.clone(),
        })),
        ty: Type::Struct(b.strukt),
    }
}

/// `(&v)->val` for a scalar, `*(&v)` for a struct variable.
fn cell_of(b: &Boxed) -> Expr {
    if matches!(b.ty, Type::Struct(_)) {
        return deref(b);
    }
    Expr {
        kind: ExprKind::Field(Box::new(deref(b)), 0, "val".into()),
        ty: b.ty.clone(),
    }
}

fn rewrite_expr(e: &Expr, boxes: &BTreeMap<VarId, Boxed>) -> Expr {
    match &e.kind {
        ExprKind::AddrOf(inner) => match inner.kind {
            ExprKind::Var(v) if boxes.contains_key(&v) => Expr {
                kind: ExprKind::Var(boxes[&v].ptr),
                ty: e.ty.clone(),
            },
            _ => e.map_children(&mut |c| rewrite_expr(c, boxes)),
        },
        ExprKind::Var(v) if boxes.contains_key(v) => cell_of(&boxes[v]),
        _ => e.map_children(&mut |c| rewrite_expr(c, boxes)),
    }
}

fn rewrite_op(op: &Op, boxes: &BTreeMap<VarId, Boxed>) -> Op {
    match op {
        Op::Havoc(v) if boxes.contains_key(v) => Op::Call {
            lhs: Some(cell_of(&boxes[v])),
            callee: Callee::Builtin(Builtin::Nondet),
            args: vec![],
        },
        _ => op.map_exprs(&mut |e| rewrite_expr(e, boxes)),
    }
}

/// A chain of edges before the entry: each box allocated, and assumed not NULL.
fn allocate_at_entry(flat: &mut Flat, boxes: &BTreeMap<VarId, Boxed>) {
    let line = flat.edges.first().map_or(0, |e| e.line);
    let old_entry = flat.entry;
    let mut at = new_node(flat);
    flat.entry = at;
    let mut added = vec![at];
    for b in boxes.values() {
        let ptr = b.ptr_ty.clone();
        let var = Expr {
            kind: ExprKind::Var(b.ptr),
            ty: ptr.clone(),
        };
        let size = flat.prog.strukt(b.strukt).size as i64;
        let alloc = Op::Call {
            lhs: Some(var.clone()),
            callee: Callee::Builtin(Builtin::Alloc(AllocKind::Malloc)),
            args: vec![Expr::int(size, flat.prog.model.size_t())],
        };
        let mid = new_node(flat);
        add_edge(flat, at, mid, alloc, line);
        let non_null = Op::Assume {
            cond: Expr {
                kind: ExprKind::Cmp(
                    CmpOp::Ne,
                    Box::new(var),
                    Box::new(Expr {
                        kind: ExprKind::Const(0),
                        ty: ptr,
                    }),
                ),
                ty: Type::Int(IntTy::INT),
            },
            positive: true,
        };
        let next = new_node(flat);
        add_edge(flat, mid, next, non_null, line);
        added.extend([mid, next]);
        at = next;
    }
    add_edge(flat, at, old_entry, Op::Skip, line);
    let mut order = added;
    order.extend(flat.order.iter().copied());
    flat.order = order;
}

fn new_node(flat: &mut Flat) -> usize {
    flat.nodes += 1;
    flat.out.push(vec![]);
    flat.inc.push(vec![]);
    flat.origin.push(None);
    flat.nodes - 1
}

fn add_edge(flat: &mut Flat, from: usize, to: usize, op: Op, line: u32) {
    flat.edges.push(FEdge { from, to, op, line });
    let i = flat.edges.len() - 1;
    flat.out[from].push(i);
    flat.inc[to].push(i);
    flat.back.push(false);
}
