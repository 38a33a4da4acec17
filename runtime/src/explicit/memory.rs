//! Explicit heaps: memory blocks (heap, stack, globals, string literals) made of cells that hold
//! values, with the checks the memory-safety properties need (validity of an access, of a
//! `free`) and the reachability analysis behind valid-memtrack.
//!
//! Values are integers (symbolic [`Term`]s, concrete in most runs), pointers (a block and a
//! byte offset), or undefined. Blocks are shared copy-on-write between the states that
//! exploration forks.

use crate::explicit::term::{Term, TermRef};
use crate::program::ir::{FuncId, IntTy, StrLit};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

/// A block id; 0 is never used so that it can stand for NULL in messages.
pub type BlockId = u32;

/// A pointer value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ptr {
    /// The null pointer.
    Null,
    /// A byte offset in a block.
    Addr(BlockId, i64),
    /// The address of a function.
    Func(FuncId),
    /// A non-null integer converted to a pointer.
    Abs(i64),
    /// The content of an uninitialised pointer variable or field.
    Undef,
}

/// A value stored in a cell or computed by an expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    /// An integer.
    Int(TermRef),
    /// A pointer.
    Ptr(Ptr),
    /// The content of uninitialised memory.
    Undef,
    /// The bytes left of a symbolic value or a pointer that a narrower write overlapped in
    /// part: reading them is not modelled (a type-punned access).
    Opaque,
}

impl Val {
    /// The integer constant 0 of type `ty`.
    pub fn zero(ty: IntTy) -> Val {
        Val::Int(Term::constant(0, ty))
    }
}

/// What kind of storage a block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BlockKind {
    /// `malloc`/`calloc`.
    Heap,
    /// A local variable or `alloca` block of a frame.
    Stack,
    /// A global variable.
    Global,
    /// A string literal (read-only).
    Literal,
    /// An object defined outside the program (`stderr`): its content is not modelled.
    External,
}

/// A block of memory.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block {
    /// Storage kind.
    pub kind: BlockKind,
    /// Size in bytes.
    pub size: u64,
    /// False after `free` or when its frame has returned.
    pub alive: bool,
    /// Whether bytes never written read as zero (calloc, globals).
    pub zeroed: bool,
    /// Cells by byte offset: value and size in bytes.
    pub cells: BTreeMap<u64, (Val, u8)>,
    /// The source line that allocated it.
    pub line: u32,
    /// A name for messages (variable name or `heap#n`).
    pub name: Rc<str>,
}

/// Why an access is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Dereference of NULL.
    Null,
    /// Access to a freed heap block.
    Freed(BlockId),
    /// Access to a stack block whose frame has returned.
    Dead(BlockId),
    /// Access outside the block's bounds.
    OutOfBounds(BlockId, i64, u64),
    /// Dereference of a pointer that is not into memory (a function, an integer).
    NotMemory,
    /// Write to a string literal.
    ReadOnly,
    /// Dereference of an uninitialised pointer.
    Uninit,
    /// Access to an object defined outside the program, whose content is not modelled.
    External(BlockId),
}

/// A block as a memory shares it, with its hash computed once: states are hashed for
/// coverage at every loop head, and most of their blocks are unchanged since the last one.
#[derive(Clone, Debug)]
struct Stored {
    block: Block,
    hash: std::cell::OnceCell<u64>,
}

impl Stored {
    fn new(block: Block) -> Stored {
        Stored {
            block,
            hash: std::cell::OnceCell::new(),
        }
    }

    fn hash_value(&self) -> u64 {
        use std::hash::BuildHasher;
        *(self.hash).get_or_init(|| foldhash::fast::FixedState::with_seed(0).hash_one(&self.block))
    }
}

impl std::ops::Deref for Stored {
    type Target = Block;
    fn deref(&self) -> &Block {
        &self.block
    }
}

/// The heap and stack storage of one state. Equality and hashing look at the blocks only: the
/// id counters do not change what a state can do.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    blocks: BTreeMap<BlockId, Rc<Stored>>,
    next: BlockId,
    heap_count: u32,
}

impl PartialEq for Memory {
    fn eq(&self, o: &Self) -> bool {
        self.blocks.len() == o.blocks.len()
            && (self.blocks.iter().zip(&o.blocks)).all(|((i, a), (j, b))| {
                i == j
                    && (Rc::ptr_eq(a, b)
                        || (a.hash_value() == b.hash_value() && a.block == b.block))
            })
    }
}

impl Eq for Memory {}

impl std::hash::Hash for Memory {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_usize(self.blocks.len());
        for (i, b) in &self.blocks {
            h.write_u32(*i);
            h.write_u64(b.hash_value());
        }
    }
}

impl Memory {
    /// Allocates a block and returns its id.
    pub fn alloc(
        &mut self,
        kind: BlockKind,
        size: u64,
        zeroed: bool,
        line: u32,
        name: &str,
    ) -> BlockId {
        self.next += 1;
        let id = self.next;
        let name: Rc<str> = if name.is_empty() {
            self.heap_count += 1;
            format!("heap#{}", self.heap_count).into()
        } else {
            name.into()
        };
        let b = Block {
            kind,
            size,
            alive: true,
            zeroed,
            cells: BTreeMap::new(),
            line,
            name,
        };
        self.blocks.insert(id, Rc::new(Stored::new(b)));
        id
    }

    /// A read-only block holding a string literal's code units and its terminating zero.
    pub fn literal(&mut self, lit: &StrLit, line: u32) -> BlockId {
        let unit = lit.elem.size();
        let size = (lit.units.len() as u64 + 1) * unit;
        let id = self.alloc(BlockKind::Literal, size, true, line, "string literal");
        if let Some(b) = self.block_mut(id) {
            for (i, c) in lit.units.iter().enumerate() {
                let v = Val::Int(Term::constant(i64::from(*c), lit.elem));
                b.cells.insert(i as u64 * unit, (v, unit as u8));
            }
        }
        id
    }

    /// The block with this id.
    pub fn block(&self, id: BlockId) -> Option<&Block> {
        self.blocks.get(&id).map(|b| &b.block)
    }

    /// All blocks.
    pub fn blocks(&self) -> impl Iterator<Item = (BlockId, &Block)> {
        self.blocks.iter().map(|(i, b)| (*i, &b.block))
    }

    /// The blocks of `self` that are not shared with `old` (new or written since `old` was
    /// cloned from the same memory): cheap, since unchanged blocks are the same allocation.
    pub fn changed_since<'a>(
        &'a self,
        old: &'a Memory,
    ) -> impl Iterator<Item = (BlockId, &'a Block)> + 'a {
        self.blocks
            .iter()
            .filter(|(i, b)| old.blocks.get(i).is_none_or(|ob| !Rc::ptr_eq(ob, b)))
            .map(|(i, b)| (*i, &b.block))
    }

    fn block_mut(&mut self, id: BlockId) -> Option<&mut Block> {
        let stored = Rc::make_mut(self.blocks.get_mut(&id)?);
        stored.hash = std::cell::OnceCell::new();
        Some(&mut stored.block)
    }

    /// Number of live heap blocks.
    pub fn live_heap(&self) -> usize {
        self.blocks
            .values()
            .filter(|b| b.alive && b.kind == BlockKind::Heap)
            .count()
    }

    /// Checks that `size` bytes at `p` may be accessed. Offsets are exact (they never wrap),
    /// so an access far past a block is out of bounds whatever the address width.
    pub fn check(&self, p: &Ptr, size: u64) -> Result<(BlockId, u64), Fault> {
        let (id, off) = match p {
            Ptr::Null => return Err(Fault::Null),
            Ptr::Undef => return Err(Fault::Uninit),
            Ptr::Addr(b, o) => (*b, *o),
            Ptr::Func(_) | Ptr::Abs(_) => return Err(Fault::NotMemory),
        };
        let b = match self.block(id) {
            Some(b) => b,
            None if id != 0 && id <= self.next => return Err(Fault::Dead(id)),
            None => return Err(Fault::NotMemory),
        };
        if b.kind == BlockKind::External {
            return Err(Fault::External(id));
        }
        if !b.alive {
            return Err(if b.kind == BlockKind::Heap {
                Fault::Freed(id)
            } else {
                Fault::Dead(id)
            });
        }
        if off < 0 || i128::from(off) + i128::from(size) > i128::from(b.size) {
            return Err(Fault::OutOfBounds(id, off, size));
        }
        Ok((id, off as u64))
    }

    /// Reads the cell of `size` bytes at a checked location. A read that other cells cover in
    /// part (a type-punned access) assembles the bytes of constant integers (little-endian)
    /// and of zeroed gaps; it is `None` when a covering cell holds a symbolic value or a
    /// pointer.
    pub fn read(&self, id: BlockId, off: u64, size: u64) -> Option<Val> {
        let b = self.block(id)?;
        if let Some((v, s)) = b.cells.get(&off)
            && u64::from(*s) == size
        {
            return Some(v.clone());
        }
        if overlapping(b, off, size).next().is_some() {
            return assemble(b, off, size);
        }
        Some(if b.zeroed {
            Val::Int(Term::constant(
                0,
                IntTy::new((size * 8).min(64) as u8, false),
            ))
        } else {
            Val::Undef
        })
    }

    /// Writes a cell of `size` bytes at a checked location, replacing overlapping cells.
    pub fn write(&mut self, id: BlockId, off: u64, size: u64, v: Val) -> Result<(), Fault> {
        let b = self.block_mut(id).ok_or(Fault::NotMemory)?;
        if b.kind == BlockKind::Literal {
            return Err(Fault::ReadOnly);
        }
        let old: Vec<u64> = overlapping(b, off, size).collect();
        for o in old {
            if let Some((ov, os)) = b.cells.remove(&o) {
                keep_outside(&mut b.cells, o, &ov, u64::from(os), off, off + size);
            }
        }
        b.cells.insert(off, (v, size as u8));
        Ok(())
    }

    /// Makes `size` bytes at a checked location uninitialised (the bytes of cells that stick
    /// out of the range are kept).
    pub fn erase(&mut self, id: BlockId, off: u64, size: u64) {
        if let Some(b) = self.block_mut(id) {
            let old: Vec<u64> = overlapping(b, off, size).collect();
            for o in old {
                if let Some((ov, os)) = b.cells.remove(&o) {
                    keep_outside(&mut b.cells, o, &ov, u64::from(os), off, off + size);
                }
            }
            if off == 0 && size == b.size {
                b.zeroed = false;
            }
        }
    }

    /// Sets `size` bytes at a checked location to `byte` (`memset`); `Err` when that takes
    /// more cells than a state should hold.
    pub fn fill(&mut self, id: BlockId, off: u64, size: u64, byte: u8) -> Result<(), String> {
        self.erase(id, off, size);
        let whole = self.block(id).is_some_and(|b| off == 0 && size == b.size);
        if byte == 0 && whole {
            if let Some(b) = self.block_mut(id) {
                b.zeroed = true;
            }
            return Ok(());
        }
        let mut cells = vec![];
        zero_cells(off, off + size, off, &mut cells)
            .map_err(|_| "a memset of a large region with a value other than 0".to_string())?;
        let b = self.block_mut(id).ok_or("memset of an unknown block")?;
        for (o, _, s) in cells {
            let pattern = (0..s).fold(0u64, |acc, _| (acc << 8) | u64::from(byte));
            let v = Val::Int(Term::constant(
                pattern as i64,
                IntTy::new((s * 8) as u8, false),
            ));
            b.cells.insert(off + o, (v, s as u8));
        }
        Ok(())
    }

    /// Forgets the content of a block: it reads as uninitialised again.
    pub fn havoc(&mut self, id: BlockId) {
        if let Some(b) = self.block_mut(id) {
            b.cells.clear();
            b.zeroed = false;
        }
    }

    /// Copies `n` bytes from `(src, so)` to `(dst, dof)` (checked locations; they may
    /// overlap, as for `memmove`): the cells inside the range, the constant bytes of cells
    /// that stick out of it, and zeros for the gaps of a zeroed source. `Err` with the reason
    /// when a cell that sticks out holds a symbolic value or a pointer, or when a zeroed
    /// source has too many gaps.
    pub fn copy(
        &mut self,
        src: BlockId,
        so: u64,
        dst: BlockId,
        dof: u64,
        n: u64,
    ) -> Result<(), String> {
        let b = self.block(src).ok_or("copy from an unknown block")?;
        let end = so.saturating_add(n);
        let mut out: Vec<(u64, Val, u64)> = vec![];
        let mut covered = so;
        let mut gaps = vec![];
        for o in overlapping(b, so, n).collect::<Vec<_>>() {
            let (v, s) = &b.cells[&o];
            let s = u64::from(*s);
            if o > covered {
                gaps.push((covered, o));
            }
            if o >= so && o + s <= end {
                out.push((o - so, v.clone(), s));
            } else {
                let lo = o.max(so);
                let hi = (o + s).min(end);
                for at in lo..hi {
                    match assemble(b, at, 1) {
                        Some(Val::Int(t)) => out.push((at - so, Val::Int(t), 1)),
                        Some(_) => {}
                        None => {
                            return Err("a copy that splits a symbolic value or a pointer".into());
                        }
                    }
                }
            }
            covered = covered.max(o + s);
        }
        if covered < end {
            gaps.push((covered, end));
        }
        if b.zeroed {
            for (lo, hi) in gaps {
                zero_cells(lo, hi, so, &mut out)?;
            }
        }
        self.erase(dst, dof, n);
        for (o, v, s) in out {
            self.write(dst, dof + o, s, v)
                .map_err(|_| "write to a read-only block".to_string())?;
        }
        Ok(())
    }

    /// Drops a stack block whose frame returned; later accesses through dangling pointers to
    /// it are reported as [`Fault::Dead`].
    pub fn release(&mut self, id: BlockId) {
        self.blocks.remove(&id);
    }

    /// Marks a block dead (freed heap block or returned frame's local).
    pub fn kill(&mut self, id: BlockId) {
        if let Some(b) = self.block_mut(id) {
            b.alive = false;
            b.cells.clear();
        }
    }

    /// Live heap blocks not reachable from the globals and the live stack blocks.
    pub fn unreachable_heap(&self) -> Vec<BlockId> {
        let mut seen: BTreeSet<BlockId> = BTreeSet::new();
        let mut stack: Vec<BlockId> = self
            .blocks
            .iter()
            .filter(|(_, b)| b.alive && b.kind != BlockKind::Heap)
            .map(|(i, _)| *i)
            .collect();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let Some(b) = self.block(id) else { continue };
            for (v, _) in b.cells.values() {
                if let Val::Ptr(Ptr::Addr(t, _)) = v {
                    stack.push(*t);
                }
            }
        }
        self.blocks
            .iter()
            .filter(|(i, b)| b.alive && b.kind == BlockKind::Heap && !seen.contains(i))
            .map(|(i, _)| *i)
            .collect()
    }

    /// Live heap blocks (for valid-memcleanup).
    pub fn live_heap_blocks(&self) -> Vec<BlockId> {
        self.blocks
            .iter()
            .filter(|(_, b)| b.alive && b.kind == BlockKind::Heap)
            .map(|(i, _)| *i)
            .collect()
    }

    /// Symbols occurring in stored values.
    pub fn symbols(&self, out: &mut Vec<u32>) {
        for b in self.blocks.values() {
            for (v, _) in b.cells.values() {
                if let Val::Int(t) = v
                    && !t.is_const()
                {
                    t.symbols(out);
                }
            }
        }
    }
}

/// Re-inserts the bytes of the old cell `(o, v, s)` that lie outside `lo..hi` (the range a
/// new write covers): constant bytes keep their values, the rest of an uninitialised cell stays
/// uninitialised, and the rest of a symbolic value or a pointer becomes [`Val::Opaque`].
fn keep_outside(cells: &mut BTreeMap<u64, (Val, u8)>, o: u64, v: &Val, s: u64, lo: u64, hi: u64) {
    let constant = match v {
        Val::Int(t) => match &**t {
            Term::Const(bits, _) => Some(*bits),
            _ => None,
        },
        _ => None,
    };
    for at in (o..o + s).filter(|at| *at < lo || *at >= hi) {
        let byte = match (constant, v) {
            (Some(bits), _) => Val::Int(Term::constant(
                i64::from((bits >> (8 * (at - o))) as u8),
                IntTy::new(8, false),
            )),
            (None, Val::Undef) => Val::Undef,
            _ => Val::Opaque,
        };
        cells.insert(at, (byte, 1));
    }
}

/// Zero cells (aligned chunks of up to 8 bytes) for the bytes `lo..hi`, at offsets relative
/// to `base`.
fn zero_cells(lo: u64, hi: u64, base: u64, out: &mut Vec<(u64, Val, u64)>) -> Result<(), String> {
    let mut at = lo;
    while at < hi {
        let mut s = 8;
        while s > 1 && (!at.is_multiple_of(s) || at + s > hi) {
            s /= 2;
        }
        out.push((at - base, Val::zero(IntTy::new((s * 8) as u8, false)), s));
        if out.len() > 1 << 16 {
            return Err("a copy of a large zero-initialised region".into());
        }
        at += s;
    }
    Ok(())
}

/// The value of `size` bytes at `off` made of the constant bytes of the cells that cover
/// them (zero or uninitialised where none does).
fn assemble(b: &Block, off: u64, size: u64) -> Option<Val> {
    if size > 8 {
        return None;
    }
    let gap = if b.zeroed { Some(0u8) } else { None };
    let mut bytes = vec![gap; size as usize];
    for o in overlapping(b, off, size).collect::<Vec<_>>() {
        let (v, s) = &b.cells[&o];
        let value = match v {
            Val::Int(t) => match &**t {
                Term::Const(bits, _) => Some(*bits),
                _ => return None,
            },
            Val::Undef => None,
            Val::Ptr(_) | Val::Opaque => return None,
        };
        for k in 0..u64::from(*s) {
            let at = o + k;
            if at >= off && at < off + size {
                bytes[(at - off) as usize] = value.map(|x| (x >> (8 * k)) as u8);
            }
        }
    }
    let Some(bytes) = bytes.into_iter().collect::<Option<Vec<u8>>>() else {
        return Some(Val::Undef);
    };
    let v = bytes
        .iter()
        .rev()
        .fold(0u64, |acc, byte| (acc << 8) | u64::from(*byte));
    Some(Val::Int(Term::constant(
        v as i64,
        IntTy::new((size * 8) as u8, false),
    )))
}

/// The offsets of the cells that overlap `size` bytes at `off`. A cell is at most
/// `u8::MAX` bytes long, so only those starting that far before `off` can reach into the
/// range: the scan is logarithmic, not linear in the cells before `off` (which made writing
/// a large array element by element quadratic).
fn overlapping(b: &Block, off: u64, size: u64) -> impl Iterator<Item = u64> + '_ {
    let end = off.saturating_add(size);
    b.cells
        .range(off.saturating_sub(u64::from(u8::MAX))..end)
        .filter(move |(o, (_, s))| **o + u64::from(*s) > off)
        .map(|(o, _)| *o)
}

impl fmt::Display for Ptr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ptr::Null => f.write_str("NULL"),
            Ptr::Addr(b, 0) => write!(f, "&blk{b}"),
            Ptr::Addr(b, o) => write!(f, "&blk{b}+{o}"),
            Ptr::Func(id) => write!(f, "&fn{}", id.0),
            Ptr::Abs(a) => write!(f, "0x{a:x}"),
            Ptr::Undef => f.write_str("<uninitialised>"),
        }
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Int(t) => write!(f, "{t}"),
            Val::Ptr(p) => write!(f, "{p}"),
            Val::Undef => f.write_str("?"),
            Val::Opaque => f.write_str("<part of a value>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_checks() {
        let mut m = Memory::default();
        let b = m.alloc(BlockKind::Heap, 8, false, 1, "");
        assert!(m.check(&Ptr::Addr(b, 4), 4).is_ok());
        assert_eq!(
            m.check(&Ptr::Addr(b, 6), 4),
            Err(Fault::OutOfBounds(b, 6, 4))
        );
        assert_eq!(m.check(&Ptr::Null, 4), Err(Fault::Null));
        m.kill(b);
        assert_eq!(m.check(&Ptr::Addr(b, 0), 4), Err(Fault::Freed(b)));
    }

    fn hash_of(m: &Memory) -> u64 {
        use std::hash::BuildHasher;
        foldhash::fast::FixedState::with_seed(1).hash_one(m)
    }

    #[test]
    fn a_written_block_is_hashed_anew() {
        let mut m = Memory::default();
        let b = m.alloc(BlockKind::Heap, 8, false, 1, "");
        m.write(b, 0, 4, Val::zero(IntTy::INT)).unwrap();
        let copy = m.clone();
        let (h0, h1) = (hash_of(&m), hash_of(&copy));
        assert_eq!(h0, h1);
        // The copy shares the block and its cached hash; writing the copy's block must not
        // keep the old hash or change the original.
        let mut written = copy.clone();
        written
            .write(b, 0, 4, Val::Int(Term::constant(7, IntTy::INT)))
            .unwrap();
        assert_ne!(written, m);
        assert_ne!(hash_of(&written), h0);
        assert_eq!(hash_of(&m), h0);
        // Writing the old value back gives an equal memory with an equal hash.
        written.write(b, 0, 4, Val::zero(IntTy::INT)).unwrap();
        assert_eq!(written, m);
        assert_eq!(hash_of(&written), h0);
    }

    #[test]
    fn reachability_follows_pointers() {
        let mut m = Memory::default();
        let root = m.alloc(BlockKind::Stack, 4, false, 1, "p");
        let a = m.alloc(BlockKind::Heap, 4, false, 1, "");
        let c = m.alloc(BlockKind::Heap, 4, false, 1, "");
        m.write(root, 0, 4, Val::Ptr(Ptr::Addr(a, 0))).unwrap();
        assert_eq!(m.unreachable_heap(), vec![c]);
        m.write(a, 0, 4, Val::Ptr(Ptr::Addr(c, 0))).unwrap();
        assert!(m.unreachable_heap().is_empty());
    }

    #[test]
    fn overlapping_cells_are_found_far_into_a_block() {
        // Cells of 1 to 16 bytes written at pseudo-random offsets of a 64 KiB block; after
        // each write, the cells that overlap random ranges are those a scan of every cell finds.
        let mut m = Memory::default();
        let b = m.alloc(BlockKind::Heap, 1 << 16, false, 1, "");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..2000 {
            let size = [1, 2, 4, 8, 16][next(5) as usize];
            let off = next((1 << 16) - 16);
            m.write(b, off, size, Val::zero(IntTy::new((size * 8) as u8, false)))
                .unwrap();
            let block = m.block(b).unwrap();
            let (qoff, qsize) = (next((1 << 16) - 40), 1 + next(40));
            let found: Vec<u64> = overlapping(block, qoff, qsize).collect();
            let all: Vec<u64> = (block.cells.iter())
                .filter(|(o, (_, s))| **o < qoff + qsize && **o + u64::from(*s) > qoff)
                .map(|(o, _)| *o)
                .collect();
            assert_eq!(found, all);
        }
        // A write into the middle of a 16-byte cell far from the start replaces its bytes.
        m.write(b, 60_000, 16, Val::zero(IntTy::new(128, false)))
            .unwrap();
        m.write(b, 60_008, 4, Val::Int(Term::constant(5, IntTy::INT)))
            .unwrap();
        assert_ne!(
            m.read(b, 60_000, 16),
            Some(Val::zero(IntTy::new(128, false)))
        );
        assert_eq!(
            m.read(b, 60_008, 4),
            Some(Val::Int(Term::constant(5, IntTy::INT)))
        );
    }

    #[test]
    fn partial_reads_assemble_constant_bytes() {
        let mut m = Memory::default();
        let b = m.alloc(BlockKind::Heap, 8, false, 1, "");
        let v = Val::Int(Term::constant(0x1234_5678, IntTy::INT));
        m.write(b, 0, 4, v).unwrap();
        let byte = |x: i64| Some(Val::Int(Term::constant(x, IntTy::new(8, false))));
        assert_eq!(m.read(b, 1, 1), byte(0x56));
        assert_eq!(m.read(b, 4, 4), Some(Val::Undef));
        assert_eq!(m.read(b, 2, 4), Some(Val::Undef));
        let sym = Val::Int(std::rc::Rc::new(Term::Sym(0, IntTy::INT)));
        m.write(b, 4, 4, sym).unwrap();
        assert!(m.read(b, 5, 1).is_none());
        let z = m.alloc(BlockKind::Heap, 8, true, 1, "");
        m.write(z, 0, 1, Val::Int(Term::constant(7, IntTy::CHAR)))
            .unwrap();
        assert_eq!(
            m.read(z, 0, 4),
            Some(Val::Int(Term::constant(7, IntTy::new(32, false))))
        );
    }
}
