//! Concrete replay of a contract refutation: the function run on the heap the logic's model
//! starts from.
//!
//! Consumes the task, the [`System`] of one function against its contract and the initial
//! [`FiniteHeap`] of a bounded run that breaks the contract; produces, when the concrete run
//! breaks it too, a [`Counterexample`] (the replayed trace and the violation). The heap is
//! built as C memory: one zeroed heap block of the list struct per allocated node (a node the
//! model leaves unallocated is a freed block), each pointer field set to the node's successor,
//! the compared data field numbered along the model's data order, and the parameters and
//! globals set to their nodes. The precondition is evaluated on the rebuilt heap before the
//! run, so a heap the construction got wrong never yields a verdict. Null has no data in C:
//! a condition must hold (or fail) whether null comes first or last in the data order.
//! Where the model is silent (nondeterministic inputs; data it does not order) a few uniform
//! and mixed choices are tried, each a concrete run of its own. The function then runs
//! with the explicit engine's concrete semantics to its first `return`, where the
//! postcondition is evaluated on the memory read back as a finite heap: over every block of
//! the struct, with `#pre` copies at the parameters' entry nodes, ghosts at theirs, and
//! `result` the returned pointer. A memory-safety violation on the way is a counterexample
//! of its own property. A field whose successor the model leaves open is set to null (the
//! precondition is checked on the heap as built). A pointer into no node of the struct gives
//! no counterexample.

use super::logic::{FiniteHeap, Formula};
use super::program::System;
use crate::engine::Task;
use crate::explicit::exec::{Exec, Frame, State, Violation};
use crate::explicit::explore::Counterexample;
use crate::explicit::memory::{BlockId, BlockKind, Ptr, Val};
use crate::explicit::replay::replay_from;
use crate::explicit::term::Term;
use crate::program::ir::{FuncId, Op, Program, VarId, VarKind};
use crate::program::property::Property;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The most edges the concrete run takes.
const MAX_STEPS: usize = 100_000;

/// How many input sequences of mixed 0s and 1s are tried after the uniform ones.
const MIXED: u64 = 14;

/// The inputs of the concrete runs tried, in order: every nondeterministic value 0, then
/// every one 1, then [`MIXED`] fixed pseudo-random sequences of 0s and 1s (a bug behind two
/// choices that differ, such as "link, but do not join the lane", needs one of those).
fn input_sequences() -> Vec<Vec<i64>> {
    let mut out = vec![vec![0; MAX_INPUTS], vec![1; MAX_INPUTS]];
    for seed in 1..=MIXED {
        let mut x = seed;
        out.push(
            (0..MAX_INPUTS)
                .map(|_| {
                    // splitmix64
                    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = x;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    ((z ^ (z >> 31)) & 1) as i64
                })
                .collect(),
        );
    }
    out
}

/// The values given to every integer field of every node that the model does not order, in
/// order (the model says nothing of them).
const DATA: [i64; 3] = [0, -1, 1];

/// The concrete runs of `function` from `heap` (each of the [`input_sequences`], each data
/// choice of [`DATA`]; one when the model orders the data): a counterexample when one breaks
/// the contract or a checked memory-safety property, `Ok(None)` when all meet them (the
/// model's run is not a run of the C function), an error when the heap cannot be built.
pub fn run(
    task: &Task,
    sys: &System,
    function: &str,
    heap: &FiniteHeap,
) -> Result<Option<Counterexample>, String> {
    let datas: &[i64] = match heap.dle {
        Some(_) => &[0],
        None => &DATA,
    };
    for inputs in input_sequences() {
        for &data in datas {
            let choice = Choice {
                inputs: &inputs,
                data,
            };
            if let Some(cex) = run_once(task, sys, function, heap, choice)? {
                return Ok(Some(cex));
            }
        }
    }
    Ok(None)
}

/// The most nondeterministic values one run takes (then 0).
const MAX_INPUTS: usize = 1024;

/// The values a concrete run takes where the model is silent.
#[derive(Clone, Copy)]
struct Choice<'a> {
    /// The nondeterministic inputs, in order.
    inputs: &'a [i64],
    /// Every integer field of every node, except the data the model orders.
    data: i64,
}

/// One concrete run of `function` from `heap` under `choice`.
fn run_once(
    task: &Task,
    sys: &System,
    function: &str,
    heap: &FiniteHeap,
    choice: Choice,
) -> Result<Option<Counterexample>, String> {
    let prog = task.program;
    let f = prog
        .func_by_name(function)
        .ok_or_else(|| format!("no function `{function}`"))?;
    let exec = Exec {
        prog,
        checks: task.properties,
        inputs: Some(choice.inputs),
        caveats: Default::default(),
        split: Default::default(),
    };
    let harness = Harness { prog, sys, heap };
    let (st, blocks) = harness.build(&exec, f, choice.data)?;
    let pre = sys.pre.as_ref().ok_or("no precondition")?;
    let entry = Reader::new(&harness, f, &st, &blocks);
    if entry.values(&st, None, pre)? != [true; 2] {
        return Err("the rebuilt initial heap does not meet the precondition".into());
    }
    let mut returning = None;
    let (violation, mut trace) = replay_from(&exec, st, MAX_STEPS, &mut |s| {
        returning = return_of(prog, f, s);
        returning.is_some()
    });
    trace
        .inputs
        .truncate(trace.steps.last().map_or(0, |s| s.consumed.end as usize));
    if let Some(v) = violation {
        return Ok(Some(Counterexample {
            violation: v,
            trace,
        }));
    }
    let (Some((value, line)), Some(last)) = (returning, trace.last.as_deref()) else {
        return Ok(None);
    };
    let mut at_exit = last.clone();
    let result = match value {
        Some(e) => match exec.eval(&mut at_exit, &e, line) {
            Ok(v) => Some(v),
            Err(_) => return Ok(None),
        },
        None => None,
    };
    let post = sys.post.as_ref().ok_or("no postcondition")?;
    let exit = Reader::new(&harness, f, &at_exit, &blocks);
    if exit.values(&at_exit, result.as_ref(), post)? != [false; 2] {
        return Ok(None);
    }
    let violation = Violation {
        property: Property::Contract,
        line,
        message: format!("`{function}` returns in a state that breaks its postcondition"),
    };
    trace.violation = Some((
        violation.property.to_string(),
        line,
        violation.message.clone(),
    ));
    Ok(Some(Counterexample { violation, trace }))
}

/// The returned expression and line when `st` is about to return from `f` called by the
/// harness (the bottom frame is the initialiser's).
fn return_of(
    prog: &Program,
    f: FuncId,
    st: &State,
) -> Option<(Option<crate::program::ir::Expr>, u32)> {
    let top = st.frames.last()?;
    if st.frames.len() != 2 || top.func != f {
        return None;
    }
    let cfa = &prog.func(f).cfa;
    cfa.edges(top.loc).find_map(|e| match &e.weight().op {
        Op::Return(v) => Some((v.clone(), e.weight().line)),
        _ => None,
    })
}

/// Builds the concrete state a model's initial heap stands for.
struct Harness<'a> {
    prog: &'a Program,
    sys: &'a System,
    heap: &'a FiniteHeap,
}

impl Harness<'_> {
    /// The state at the entry of `f` and the block of every model node (`None` for null).
    fn build(
        &self,
        exec: &Exec,
        f: FuncId,
        data: i64,
    ) -> Result<(State, Vec<Option<BlockId>>), String> {
        let (prog, heap) = (self.prog, self.heap);
        let mut st = exec.initial();
        let def = &prog.structs[self.sys.strukt.0 as usize];
        let mut blocks = vec![None; heap.size];
        for (n, slot) in blocks.iter_mut().enumerate() {
            if n != heap.null {
                let name = format!("n{n}");
                *slot = Some(st.mem.alloc(BlockKind::Heap, def.size, true, 0, &name));
            }
        }
        let ptr = |n: usize| match blocks[n] {
            Some(b) => Val::Ptr(Ptr::Addr(b, 0)),
            None => Val::Ptr(Ptr::Null),
        };
        for (fi, name) in self.sys.fields.iter().enumerate() {
            let field = field(prog, self.sys, name)?;
            let size = prog.size_of(&field.ty);
            for n in (0..heap.size).filter(|&n| n != heap.null) {
                // A chain the model leaves open ends in null here: any choice is a heap,
                // and the precondition is evaluated on the heap built.
                let next = heap.successor(fi, n).unwrap_or(heap.null);
                let b = blocks[n].ok_or_else(|| no_block(n))?;
                st.mem
                    .write(b, field.offset, size, ptr(next))
                    .map_err(|e| format!("{e:?}"))?;
            }
        }
        for field in def.fields.iter().filter(|x| x.bits.is_none()) {
            let Some(ty) = field.ty.as_int() else {
                continue;
            };
            let ordered = heap.dle.is_some() && self.sys.data_field.as_ref() == Some(&field.name);
            for n in (0..heap.size).filter(|&n| n != heap.null) {
                let value = if ordered { self.rank(n) } else { data };
                let v = Val::Int(Term::constant(value, ty));
                let b = blocks[n].ok_or_else(|| no_block(n))?;
                st.mem
                    .write(b, field.offset, prog.size_of(&field.ty), v)
                    .map_err(|e| format!("{e:?}"))?;
            }
        }
        let func = prog.func(f);
        let mut vars = BTreeMap::new();
        for &v in &func.locals {
            let info = prog.var(v);
            let b = st.mem.alloc(
                BlockKind::Stack,
                prog.size_of(&info.ty),
                false,
                info.line,
                &info.name,
            );
            vars.insert(v, b);
        }
        for (i, &v) in self.sys.vars.iter().enumerate() {
            if !self.sys.live[0].contains(&i) || v.0 as usize >= prog.vars.len() {
                continue;
            }
            let b = match prog.var(v).kind {
                VarKind::Global => st.globals.get(&v).copied(),
                _ => vars.get(&v).copied(),
            };
            if let Some(b) = b {
                let size = prog.size_of(&prog.var(v).ty);
                st.mem
                    .write(b, 0, size, ptr(heap.vars[i]))
                    .map_err(|e| format!("{e:?}"))?;
            }
        }
        for n in (0..heap.size).filter(|&n| n != heap.null && !heap.alloc[n]) {
            st.mem.kill(blocks[n].ok_or_else(|| no_block(n))?);
        }
        st.frames.push(Frame {
            func: f,
            loc: func.entry,
            vars: Rc::new(vars),
            allocas: vec![],
            call_edge: None,
        });
        Ok((st, blocks))
    }

    /// The data value of node `n`: how many nodes lie strictly below it in the data order.
    fn rank(&self, n: usize) -> i64 {
        let Some(d) = &self.heap.dle else { return 0 };
        (0..self.heap.size).filter(|&m| d[m][n] && !d[n][m]).count() as i64
    }
}

/// Reads a concrete state back as a finite heap over the vocabulary.
struct Reader<'a> {
    prog: &'a Program,
    sys: &'a System,
    /// The function's parameters (what a `#pre` copy names).
    params: &'a [VarId],
    /// The node of each block of the list struct; node 0 is null.
    node: BTreeMap<BlockId, usize>,
    /// The model's initial heap and its nodes' blocks (`#pre` copies and ghosts keep their
    /// entry nodes).
    model: (&'a FiniteHeap, &'a [Option<BlockId>]),
}

impl<'a> Reader<'a> {
    fn new(
        harness: &Harness<'a>,
        f: FuncId,
        st: &State,
        blocks: &'a [Option<BlockId>],
    ) -> Reader<'a> {
        let (prog, sys) = (harness.prog, harness.sys);
        let size = prog.structs[sys.strukt.0 as usize].size;
        let node = (st.mem.blocks())
            .filter(|(_, b)| b.kind == BlockKind::Heap && b.size >= size)
            .enumerate()
            .map(|(i, (id, _))| (id, i + 1))
            .collect();
        Reader {
            prog,
            sys,
            params: &prog.func(f).params,
            node,
            model: (harness.heap, blocks),
        }
    }

    /// The node a pointer value denotes.
    fn of(&self, v: &Val) -> Result<usize, String> {
        match v {
            Val::Ptr(Ptr::Null) => Ok(0),
            Val::Ptr(Ptr::Addr(b, 0)) => self
                .node
                .get(b)
                .copied()
                .ok_or_else(|| "a pointer to no node of the list struct".into()),
            Val::Int(t) if t.as_const() == Some(0) => Ok(0),
            other => Err(format!("a pointer the logic cannot name: {other:?}")),
        }
    }

    /// The value of `f` on `st` with null (and any node whose data is unknown) first and
    /// last in the data order (C gives null no data; the logic's order places it somewhere).
    fn values(&self, st: &State, result: Option<&Val>, f: &Formula) -> Result<[bool; 2], String> {
        let (mut heap, known) = self.heap(st, result)?;
        Ok([i64::MIN, i64::MAX].map(|none| {
            let data: Vec<i64> = known.iter().map(|d| d.unwrap_or(none)).collect();
            if self.sys.data_field.is_some() {
                heap.dle = Some(order(&data));
            }
            heap.eval(f)
        }))
    }

    /// The finite heap of `st`, with `result` the returned value (at the exit), and each
    /// node's data where known (the rest left for [`Reader::values`] to place).
    fn heap(
        &self,
        st: &State,
        result: Option<&Val>,
    ) -> Result<(FiniteHeap, Vec<Option<i64>>), String> {
        let size = self.node.len() + 1;
        let mut succ = vec![vec![0usize; size]; self.sys.fields.len()];
        let mut alloc = vec![false; size];
        let mut data = vec![None; size];
        for (&b, &n) in &self.node {
            let block = st.mem.block(b).ok_or("block")?;
            alloc[n] = block.alive;
            for (fi, name) in self.sys.fields.iter().enumerate() {
                let v = st
                    .mem
                    .read(b, self.field(name)?.offset, self.ptr_size(name)?);
                succ[fi][n] = self.of(&v.unwrap_or(Val::Ptr(Ptr::Null)))?;
            }
            if let Some(d) = &self.sys.data_field {
                let field = self.field(d)?;
                let v = st.mem.read(b, field.offset, self.prog.size_of(&field.ty));
                if let Some(Val::Int(t)) = v {
                    data[n] = Some(t.as_const().ok_or("a symbolic data value")?);
                }
            }
        }
        let vars = (0..self.sys.vars.len())
            .map(|i| self.var(st, i, result))
            .collect::<Result<_, _>>()?;
        let heap = FiniteHeap {
            size,
            vars,
            null: 0,
            reach: (succ.iter().map(|s| closure(s)))
                .chain(self.sys.backbones.iter().map(|(_, m)| {
                    let members: Vec<&[usize]> = m.iter().map(|&f| succ[f].as_slice()).collect();
                    descendants(&members, 0)
                }))
                .collect(),
            alloc,
            dle: None,
        };
        Ok((heap, data))
    }

    /// The list struct's field `name`.
    fn field(&self, name: &str) -> Result<&'a crate::program::ir::Field, String> {
        field(self.prog, self.sys, name)
    }

    fn ptr_size(&self, name: &str) -> Result<u64, String> {
        Ok(self.prog.size_of(&self.field(name)?.ty))
    }

    /// The node of vocabulary variable `i` in `st`.
    fn var(&self, st: &State, i: usize, result: Option<&Val>) -> Result<usize, String> {
        let v: VarId = self.sys.vars[i];
        if Some(v) == self.sys.flat.result {
            return result.map_or(Ok(0), |r| self.of(r));
        }
        let info = self.sys.flat.prog.var(v);
        if let Some(base) = info.name.strip_suffix("#pre") {
            let p = (self.params.iter())
                .find(|p| self.prog.var(**p).name == base)
                .ok_or("a copy of no parameter")?;
            let j = (self.sys.vars.iter().position(|x| x == p))
                .ok_or("a parameter outside the vocabulary")?;
            return self.entry_node(j);
        }
        if info.name.ends_with("#ghost") {
            return self.entry_node(i);
        }
        if v.0 as usize >= self.prog.vars.len() {
            return Ok(0);
        }
        let block = match self.prog.var(v).kind {
            VarKind::Global => st.globals.get(&v).copied(),
            _ => st.frames.last().and_then(|t| t.vars.get(&v).copied()),
        };
        match block {
            Some(b) => {
                let size = self.prog.size_of(&self.prog.var(v).ty);
                // An uninitialised variable is not live (the model does not name it).
                match st.mem.read(b, 0, size) {
                    None | Some(Val::Undef) => Ok(0),
                    Some(v) => self.of(&v),
                }
            }
            None => Ok(0),
        }
    }

    /// The node, in this heap, of the block the model gave vocabulary variable `i` at entry.
    fn entry_node(&self, i: usize) -> Result<usize, String> {
        let (heap, blocks) = self.model;
        match blocks.get(heap.vars[i]).copied().flatten() {
            Some(b) => (self.node.get(&b).copied())
                .ok_or_else(|| format!("the block of model node n{} is gone", heap.vars[i])),
            None => Ok(0),
        }
    }
}

/// Why model node `n` has no concrete block (only `null` has none).
fn no_block(n: usize) -> String {
    format!("model node n{n} has no concrete block")
}

/// The data order of the nodes with these data values.
fn order(data: &[i64]) -> Vec<Vec<bool>> {
    (data.iter())
        .map(|a| data.iter().map(|b| a <= b).collect())
        .collect()
}

/// Field `name` of the system's list struct.
fn field<'a>(
    prog: &'a Program,
    sys: &System,
    name: &str,
) -> Result<&'a crate::program::ir::Field, String> {
    let def = &prog.structs[sys.strukt.0 as usize];
    (def.fields.iter())
        .find(|x| x.name == name)
        .ok_or_else(|| format!("no field `{name}`"))
}

/// A backbone's relation over the successor arrays of its fields: `(a, b)` when `a = b` or
/// a non-empty path along them leads from `a` to `b ≠ null`.
fn descendants(members: &[&[usize]], null: usize) -> Vec<Vec<bool>> {
    let n = members.first().map_or(0, |s| s.len());
    let mut r = vec![vec![false; n]; n];
    for (a, row) in r.iter_mut().enumerate() {
        row[a] = true;
        let mut work = vec![a];
        while let Some(x) = work.pop() {
            for s in members {
                let y = s[x];
                if y != null && !row[y] {
                    row[y] = true;
                    work.push(y);
                }
            }
        }
    }
    r
}

/// The reflexive-transitive closure of a successor function (`succ[null] = null`).
fn closure(succ: &[usize]) -> Vec<Vec<bool>> {
    let n = succ.len();
    let mut r = vec![vec![false; n]; n];
    for (a, row) in r.iter_mut().enumerate() {
        let mut x = a;
        for _ in 0..=n {
            if row[x] {
                break;
            }
            row[x] = true;
            x = succ[x];
        }
    }
    r
}
