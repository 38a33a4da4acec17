//! The memory model of the SSA encoding: which variables are SSA registers, which memory
//! objects exist, the scalar cells of each, and their symbolic addresses.
//!
//! Consumes a [`Flat`] program; produces a [`Memory`]. Objects are the variables whose
//! address is taken or that are structs or arrays, and per allocation site either one object
//! (a site outside every loop runs at most once) or two: the most recently allocated object,
//! kept exact with strong updates, and a summary of all earlier ones, updated weakly (the
//! paper's pre-materialised objects with n_i = 2 in the form of a recency abstraction, which
//! keeps the encoding sound when one loop iteration touches several objects of a site). An
//! address is an object number and a byte offset in a 32-bit vector, 0 being NULL; there is
//! no pointer arithmetic.

use super::flat::Flat;
use crate::program::ir::{
    AllocKind, Builtin, Callee, Expr, ExprKind, IntTy, Op, Program, Type, VarId,
};
use std::collections::BTreeSet;

/// The width of an encoded address.
pub const PTR_BITS: u32 = 32;

/// The offset of an allocated object's liveness flag (not a byte of the object).
pub const ALIVE: u64 = 0xFFFF;

/// The type of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// An integer.
    Int(IntTy),
    /// A pointer.
    Ptr,
}

impl Scalar {
    /// The scalar of a type, if it is one.
    pub fn of(ty: &Type) -> Option<Scalar> {
        match ty {
            Type::Int(i) => Some(Scalar::Int(*i)),
            Type::Ptr(_) => Some(Scalar::Ptr),
            _ => None,
        }
    }

    /// Width of its encoding in bits.
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Int(i) => u32::from(i.bits),
            Scalar::Ptr => PTR_BITS,
        }
    }

    /// Whether a cell of type `self` can be accessed as `other`.
    pub fn fits(self, other: Scalar) -> bool {
        match (self, other) {
            (Scalar::Int(a), Scalar::Int(b)) => a.bits == b.bits,
            (Scalar::Ptr, Scalar::Ptr) => true,
            _ => false,
        }
    }
}

/// A scalar cell of an object.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Byte offset.
    pub off: u64,
    /// Its type.
    pub ty: Scalar,
    /// A name for reports (`.next`).
    pub name: String,
}

/// What an object stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ObjKind {
    /// A variable in memory.
    Var(VarId),
    /// The only object of a site outside every loop.
    Once(usize),
    /// The most recent object of a site in a loop.
    Recent(usize),
    /// The summary of the earlier objects of a site in a loop.
    Summary(usize),
}

/// A memory object.
#[derive(Clone, Debug)]
pub struct Object {
    /// What it stands for.
    pub kind: ObjKind,
    /// Its cells by offset (allocated objects also have the liveness flag at [`ALIVE`]).
    pub cells: Vec<Cell>,
    /// A name for reports.
    pub name: String,
}

/// An allocation site.
#[derive(Clone, Debug)]
pub struct Site {
    /// Its edge in the flat graph.
    pub edge: usize,
    /// Whether it lies in a loop.
    pub in_loop: bool,
    /// `calloc` (zeroed) or `malloc`.
    pub zeroed: bool,
    /// The objects: (once or recent, summary).
    pub objects: (usize, Option<usize>),
}

/// The memory model of a program.
#[derive(Clone, Debug)]
pub struct Memory {
    /// Objects by number (address `(number + 1) << 16`).
    pub objects: Vec<Object>,
    /// Whether each variable is an SSA register (a scalar whose address is never taken).
    pub register: Vec<bool>,
    /// The object of each variable in memory.
    pub var_object: Vec<Option<usize>>,
    /// Allocation sites.
    pub sites: Vec<Site>,
    /// The variables whose address is taken (read and written through pointers too).
    pub taken: BTreeSet<VarId>,
}

impl Memory {
    /// The memory model of `flat`.
    pub fn new(flat: &Flat) -> Result<Memory, String> {
        let prog = &flat.prog;
        let taken = address_taken(flat);
        let mut mem = Memory {
            objects: vec![],
            register: vec![false; prog.vars.len()],
            var_object: vec![None; prog.vars.len()],
            sites: vec![],
            taken,
        };
        for (i, v) in prog.vars.iter().enumerate() {
            let id = VarId(i as u32);
            if Scalar::of(&v.ty).is_some() && !mem.taken.contains(&id) {
                mem.register[i] = true;
                continue;
            }
            let mut cells = vec![];
            if leaves(prog, &v.ty, 0, "", &mut cells).is_err() {
                // A variable the encoding cannot lay out: refused when it is used.
                continue;
            }
            mem.var_object[i] = Some(mem.objects.len());
            mem.objects.push(Object {
                kind: ObjKind::Var(id),
                cells,
                name: v.name.clone(),
            });
        }
        for (e, edge) in flat.edges.iter().enumerate() {
            if let Op::Call {
                lhs,
                callee: Callee::Builtin(Builtin::Alloc(kind)),
                ..
            } = &edge.op
            {
                mem.site(flat, e, lhs.as_ref(), *kind)?;
            }
        }
        Ok(mem)
    }

    fn site(
        &mut self,
        flat: &Flat,
        edge: usize,
        lhs: Option<&Expr>,
        kind: AllocKind,
    ) -> Result<(), String> {
        let line = flat.edges[edge].line;
        if kind == AllocKind::Alloca {
            return Err(format!("alloca at line {line}"));
        }
        let pointee = match lhs.and_then(|l| l.ty.pointee()) {
            Some(Type::Void) | None => lhs.and_then(|l| flowed_pointee(flat, l)),
            Some(t) => Some(t.clone()),
        }
        .unwrap_or(Type::Void);
        let mut cells = vec![];
        if !matches!(pointee, Type::Void) {
            leaves(&flat.prog, &pointee, 0, "", &mut cells)
                .map_err(|w| format!("the object allocated at line {line}: {w}"))?;
        }
        cells.push(Cell {
            off: ALIVE,
            ty: Scalar::Int(IntTy::new(8, false)),
            name: ".alive".into(),
        });
        let from = flat.edges[edge].from;
        let in_loop = flat.loops.values().any(|body| body.contains(&from));
        let n = self.sites.len();
        let first = self.objects.len();
        let name = format!("site{n}@{line}");
        if in_loop {
            self.objects.push(Object {
                kind: ObjKind::Recent(n),
                cells: cells.clone(),
                name: format!("{name}.recent"),
            });
            self.objects.push(Object {
                kind: ObjKind::Summary(n),
                cells,
                name: format!("{name}.summary"),
            });
        } else {
            self.objects.push(Object {
                kind: ObjKind::Once(n),
                cells,
                name,
            });
        }
        self.sites.push(Site {
            edge,
            in_loop,
            zeroed: kind == AllocKind::Calloc,
            objects: (first, in_loop.then_some(first + 1)),
        });
        Ok(())
    }

    /// The encoded address of byte `off` of object `obj`.
    pub fn addr(obj: usize, off: u64) -> u64 {
        ((obj as u64 + 1) << 16) | off
    }

    /// The object an encoded address points into.
    pub fn object_of(addr: u64) -> Option<usize> {
        (addr >> 16).checked_sub(1).map(|o| o as usize)
    }

    /// The cell of object `o` at `off`.
    pub fn cell(&self, o: usize, off: u64) -> &Cell {
        (self.objects[o].cells.iter())
            .find(|c| c.off == off)
            .expect("a cell of the object")
    }

    /// The site of an allocation edge.
    pub fn site_of_edge(&self, edge: usize) -> Option<usize> {
        self.sites.iter().position(|s| s.edge == edge)
    }
}

/// The type of the objects of an allocation stored through a `void *` (an allocating helper
/// such as `safe_malloc`): the one pointee type of the pointers (variables or fields) the
/// result is copied into, directly or through casts and returns; `None` when there is none
/// or they disagree.
fn flowed_pointee(flat: &Flat, lhs: &Expr) -> Option<Type> {
    let ExprKind::Var(v) = lhs.kind else {
        return None;
    };
    let mut holders = BTreeSet::from([v]);
    // The pointer types of the places the value is stored in, variables or not.
    let mut types: Vec<&Type> = vec![&lhs.ty];
    loop {
        let before = holders.len();
        types.truncate(1);
        for edge in &flat.edges {
            if let Op::Assign { lhs, rhs } = &edge.op
                && copied_var(rhs).is_some_and(|y| holders.contains(&y))
            {
                types.push(&lhs.ty);
                if let ExprKind::Var(x) = lhs.kind {
                    holders.insert(x);
                }
            }
        }
        if holders.len() == before {
            break;
        }
    }
    let mut pointees = (types.into_iter())
        .filter_map(|t| t.pointee())
        .filter(|t| !matches!(t, Type::Void | Type::Int(_)));
    let first = pointees.next()?.clone();
    pointees.all(|t| *t == first).then_some(first)
}

/// The variable an expression copies, looking through casts.
fn copied_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast(a) => copied_var(a),
        _ => None,
    }
}

/// The scalar cells of a value of type `ty` at offset `base` (named after `path`).
pub fn leaves(
    prog: &Program,
    ty: &Type,
    base: u64,
    path: &str,
    out: &mut Vec<Cell>,
) -> Result<(), String> {
    if out.len() > 256 || base >= ALIVE {
        return Err("too large an object".into());
    }
    match ty {
        Type::Int(_) | Type::Ptr(_) => {
            out.push(Cell {
                off: base,
                ty: Scalar::of(ty).expect("scalar"),
                name: if path.is_empty() {
                    "*".into()
                } else {
                    path.into()
                },
            });
            Ok(())
        }
        Type::Struct(s) => {
            let def = prog.strukt(*s);
            if def.is_union {
                return Err(format!("a union ({})", def.name));
            }
            if !def.complete {
                return Err(format!("an incomplete type ({})", def.name));
            }
            for f in &def.fields {
                if f.bits.is_some() {
                    return Err(format!("a bit-field ({}.{})", def.name, f.name));
                }
                leaves(
                    prog,
                    &f.ty,
                    base + f.offset,
                    &format!("{path}.{}", f.name),
                    out,
                )?;
            }
            Ok(())
        }
        Type::Array(t, n) if *n <= 64 => {
            let size = prog.size_of(t);
            for i in 0..*n {
                leaves(prog, t, base + i * size, &format!("{path}[{i}]"), out)?;
            }
            Ok(())
        }
        Type::Array(..) => Err("a large array".into()),
        Type::Void | Type::Func => Err("an object of no type".into()),
    }
}

/// The variables whose address is taken somewhere.
fn address_taken(flat: &Flat) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for e in &flat.edges {
        for x in e.op.exprs() {
            x.visit(&mut |e| {
                if let ExprKind::AddrOf(a) = &e.kind
                    && let Some(v) = root_var(a)
                {
                    out.insert(v);
                }
            });
        }
    }
    out
}

/// The variable an lvalue lies in, when it is not reached through a pointer.
pub fn root_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Field(b, ..) | ExprKind::BitField(b, _) => root_var(b),
        _ => None,
    }
}
