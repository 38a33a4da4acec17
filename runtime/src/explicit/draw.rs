//! Draws a concrete state as a [`Picture`]: consumes the program and an explicit-heap
//! [`State`] (the one a counterexample's replay ends in), produces a box per pointer variable
//! (roots), per heap block (live, freed or leaked) and per other block a pointer reaches,
//! with an arrow from every pointer cell to the block it points into.
//!
//! A heap block has no type of its own; it takes the struct type of a typed pointer to its
//! start (a variable's declared type, then the fields of blocks typed so far), or else the
//! one struct of its size that a pointer assigned on its allocation's line points to, or else
//! the one type of the typed blocks of its size allocated at the same line; so its rows are
//! named by field. Cells no field covers are shown by byte offset. Compiler-made variables
//! (`__`-prefixed) are not drawn.

use crate::explicit::exec::State;
use crate::explicit::memory::{BlockId, BlockKind, Memory, Ptr, Val};
use crate::explicit::replay::show;
use crate::picture::{Kind, Picture};
use crate::program::ir::{Op, Program, Type, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// The most heap blocks drawn (the rest are counted in the caption).
const MAX_BLOCKS: usize = 150;
/// The most elements of an array field drawn one by one.
const MAX_ELEMS: u64 = 16;

/// The picture of `st` under `caption`.
pub fn picture(prog: &Program, st: &State, caption: &str) -> Picture {
    let vars = variables(prog, st);
    let mut types = block_types(prog, &st.mem, &vars);
    allocation_types(prog, &st.mem, &mut types);
    sibling_types(&st.mem, &mut types);
    let shown = shown_blocks(prog, &st.mem, &vars);
    let leaked: BTreeSet<BlockId> = st.mem.unreachable_heap().into_iter().collect();
    let heap_total = st
        .mem
        .blocks()
        .filter(|(_, b)| b.kind == BlockKind::Heap)
        .count();
    let mut caption = caption.to_string();
    if heap_total > MAX_BLOCKS {
        caption.push_str(&format!(
            " (the first {MAX_BLOCKS} of {heap_total} heap blocks)"
        ));
    }
    let mut p = Picture::new(caption);
    let mut index: BTreeMap<BlockId, usize> = BTreeMap::new();
    let mut targets: Vec<Vec<Option<BlockId>>> = vec![];
    for &id in &shown {
        let Some(b) = st.mem.block(id) else { continue };
        let rows = rows(prog, &st.mem, id, types.get(&id));
        let (title, kind) = match vars.get(&id) {
            Some((v, func)) => (var_title(prog, *v, func), Kind::Root),
            None if b.kind != BlockKind::Heap => (b.name.to_string(), Kind::Object),
            None => {
                let kind = if !b.alive {
                    Kind::Freed
                } else if leaked.contains(&id) {
                    Kind::Leaked
                } else {
                    Kind::Object
                };
                (block_title(b, kind), kind)
            }
        };
        let (text, to): (Vec<String>, Vec<Option<BlockId>>) = rows.into_iter().unzip();
        index.insert(id, p.node(title, text, kind));
        targets.push(to);
    }
    for (from, row_targets) in targets.iter().enumerate() {
        for (row, t) in row_targets.iter().enumerate() {
            if let Some(to) = t.and_then(|t| index.get(&t)) {
                p.arrow(from, Some(row), *to, "", false);
            }
        }
    }
    p
}

/// The variable (and its function, for locals) of every variable block.
fn variables(prog: &Program, st: &State) -> BTreeMap<BlockId, (VarId, String)> {
    let mut out = BTreeMap::new();
    for (v, b) in st.globals.iter() {
        out.insert(*b, (*v, String::new()));
    }
    for f in &st.frames {
        let name = prog.func(f.func).name.clone();
        for (v, b) in f.vars.iter() {
            out.insert(*b, (*v, name.clone()));
        }
    }
    out
}

fn var_title(prog: &Program, v: VarId, func: &str) -> String {
    let name = &prog.var(v).name;
    if func.is_empty() {
        name.clone()
    } else {
        format!("{name} ({func})")
    }
}

fn block_title(b: &crate::explicit::memory::Block, kind: Kind) -> String {
    let what = match kind {
        Kind::Freed => ", freed",
        Kind::Leaked => ", unreachable",
        _ => "",
    };
    format!("{} (line {}{what})", b.name, b.line)
}

/// The blocks drawn, in drawing order: pointer variables, heap blocks, other blocks a drawn
/// cell points into.
fn shown_blocks(
    prog: &Program,
    mem: &Memory,
    vars: &BTreeMap<BlockId, (VarId, String)>,
) -> Vec<BlockId> {
    let mut shown: Vec<BlockId> = vars
        .iter()
        .filter(|(_, (v, _))| !prog.var(*v).name.starts_with("__"))
        .filter(|(_, (v, _))| has_pointer(prog, &prog.var(*v).ty))
        .map(|(b, _)| *b)
        .collect();
    let heap = mem
        .blocks()
        .filter(|(_, b)| b.kind == BlockKind::Heap && b.alive)
        .map(|(id, _)| id)
        .take(MAX_BLOCKS);
    shown.extend(heap);
    let mut seen: BTreeSet<BlockId> = shown.iter().copied().collect();
    let mut i = 0;
    while i < shown.len() && seen.len() < 2 * MAX_BLOCKS {
        let cells = mem
            .block(shown[i])
            .into_iter()
            .flat_map(|b| b.cells.values());
        for (v, _) in cells {
            if let Val::Ptr(Ptr::Addr(t, _)) = v
                && mem.block(*t).is_some()
                && seen.insert(*t)
            {
                shown.push(*t);
            }
        }
        i += 1;
    }
    shown
}

fn has_pointer(prog: &Program, ty: &Type) -> bool {
    match ty {
        Type::Ptr(_) => true,
        Type::Array(t, _) => has_pointer(prog, t),
        Type::Struct(s) => prog
            .strukt(*s)
            .fields
            .iter()
            .any(|f| has_pointer(prog, &f.ty)),
        _ => false,
    }
}

/// The type of every block whose start a typed pointer reaches.
fn block_types(
    prog: &Program,
    mem: &Memory,
    vars: &BTreeMap<BlockId, (VarId, String)>,
) -> BTreeMap<BlockId, Type> {
    let mut types: BTreeMap<BlockId, Type> = vars
        .iter()
        .map(|(b, (v, _))| (*b, prog.var(*v).ty.clone()))
        .collect();
    let mut work: Vec<BlockId> = types.keys().copied().collect();
    while let Some(id) = work.pop() {
        let (Some(b), Some(ty)) = (mem.block(id), types.get(&id).cloned()) else {
            continue;
        };
        for (_, off, fty) in slots(prog, &ty, 0, "") {
            let (Some(pointee), Some((Val::Ptr(Ptr::Addr(t, 0)), _))) =
                (fty.pointee(), b.cells.get(&off))
            else {
                continue;
            };
            let heap = mem.block(*t).is_some_and(|x| x.kind == BlockKind::Heap);
            let typed = matches!(pointee, Type::Struct(_) | Type::Ptr(_) | Type::Int(_));
            if heap && typed && !types.contains_key(t) {
                types.insert(*t, pointee.clone());
                work.push(*t);
            }
        }
    }
    types
}

/// Types the blocks no pointer typed by their allocation's line: the struct of the block's
/// size that pointers assigned on that line point to, if there is exactly one.
fn allocation_types(prog: &Program, mem: &Memory, types: &mut BTreeMap<BlockId, Type>) {
    let mut by_line: BTreeMap<u32, BTreeSet<crate::program::ir::StructId>> = BTreeMap::new();
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            let lhs = match &e.op {
                Op::Assign { lhs, .. } => Some(lhs),
                Op::Call { lhs, .. } => lhs.as_ref(),
                _ => None,
            };
            if let Some(Type::Struct(s)) = lhs.and_then(|l| l.ty.pointee()) {
                by_line.entry(e.line).or_default().insert(*s);
            }
        }
    }
    for (id, b) in mem.blocks() {
        if b.kind != BlockKind::Heap || types.contains_key(&id) {
            continue;
        }
        let fits = (by_line.get(&b.line).into_iter().flatten())
            .filter(|s| prog.strukt(**s).size == b.size)
            .collect::<Vec<_>>();
        if let [s] = fits[..] {
            types.insert(id, Type::Struct(*s));
        }
    }
}

/// Types the heap blocks still untyped like the typed ones allocated at the same line with
/// the same size (cells a helper allocated, some of them no longer reachable), when those
/// agree on one type.
fn sibling_types(mem: &Memory, types: &mut BTreeMap<BlockId, Type>) {
    let mut by_site: BTreeMap<(u32, u64), Vec<&Type>> = BTreeMap::new();
    let heap = || mem.blocks().filter(|(_, b)| b.kind == BlockKind::Heap);
    for (id, b) in heap() {
        if let Some(t) = types.get(&id) {
            let site = by_site.entry((b.line, b.size)).or_default();
            if !site.contains(&t) {
                site.push(t);
            }
        }
    }
    let guesses: Vec<(BlockId, Type)> = heap()
        .filter(|(id, _)| !types.contains_key(id))
        .filter_map(|(id, b)| match by_site.get(&(b.line, b.size)) {
            Some(ts) if ts.len() == 1 => Some((id, ts[0].clone())),
            _ => None,
        })
        .collect();
    types.extend(guesses);
}

/// The scalar slots of a value of type `ty` at `base`: name, offset, type.
fn slots(prog: &Program, ty: &Type, base: u64, name: &str) -> Vec<(String, u64, Type)> {
    match ty {
        Type::Struct(s) => {
            let def = prog.strukt(*s);
            let mut out = vec![];
            for f in &def.fields {
                let n = if name.is_empty() {
                    f.name.clone()
                } else {
                    format!("{name}.{}", f.name)
                };
                out.extend(slots(prog, &f.ty, base + f.offset, &n));
            }
            out
        }
        Type::Array(t, n) if *n <= MAX_ELEMS => {
            let size = prog.size_of(t);
            (0..*n)
                .flat_map(|i| slots(prog, t, base + i * size, &format!("{name}[{i}]")))
                .collect()
        }
        Type::Array(..) | Type::Func | Type::Void => vec![],
        _ => vec![(name.to_string(), base, ty.clone())],
    }
}

/// The rows of block `id` and the block each row points into.
fn rows(
    prog: &Program,
    mem: &Memory,
    id: BlockId,
    ty: Option<&Type>,
) -> Vec<(String, Option<BlockId>)> {
    let Some(b) = mem.block(id) else {
        return vec![];
    };
    let mut covered = BTreeSet::new();
    let mut out = vec![];
    for (name, off, _) in ty.map(|t| slots(prog, t, 0, "")).unwrap_or_default() {
        if off >= b.size {
            continue;
        }
        covered.insert(off);
        let (text, to) = match b.cells.get(&off) {
            Some((v, _)) => (show(mem, v), target(v)),
            None if b.zeroed => ("0".to_string(), None),
            None => ("?".to_string(), None),
        };
        let label = if name.is_empty() {
            text
        } else {
            format!("{name} = {text}")
        };
        out.push((label, to));
    }
    for (off, (v, _)) in &b.cells {
        if !covered.contains(off) {
            out.push((format!("+{off} = {}", show(mem, v)), target(v)));
        }
    }
    out
}

fn target(v: &Val) -> Option<BlockId> {
    match v {
        Val::Ptr(Ptr::Addr(t, _)) => Some(*t),
        _ => None,
    }
}
