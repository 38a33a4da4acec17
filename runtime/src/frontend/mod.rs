//! The C front end: a C file in, a [`Program`] out.
//!
//! `.c` files go through the system preprocessor (`cc -E`), `.i` files are read as they are;
//! lang-c parses the text (GNU C), and the lowering passes (`types`, `expr`, `stmt`, `decl`)
//! turn the AST into one CFA per function. A construct the IR cannot express does not stop
//! the front end: it becomes an [`Op::Unsupported`] edge naming the construct and its line, so
//! only programs that can reach it get an UNKNOWN verdict. Malformed input (a missing file, a
//! preprocessor failure, a syntax error, no `main`) is a [`FrontendError`].

mod decl;
mod expr;
mod source;
mod stmt;
mod types;

pub use source::Source;

use crate::ir::*;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// Input the front end rejects: no verdict can be given.
#[derive(Debug, Clone)]
pub struct FrontendError {
    /// What is wrong, with file and line when known.
    pub message: String,
}

impl fmt::Display for FrontendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FrontendError {}

/// A construct the lowering cannot express, with its source line.
#[derive(Debug, Clone)]
pub(crate) struct Unsup {
    pub msg: String,
    pub line: u32,
}

type Res<T> = Result<T, Unsup>;

/// Reads, preprocesses, parses and lowers a C file.
pub fn load(path: &Path) -> Result<Program, FrontendError> {
    let source = Source::load(path).map_err(|e| FrontendError { message: e.0 })?;
    lower_source(&source, &path.display().to_string())
}

/// Parses and lowers preprocessed text (used by tests and by [`load`]).
pub fn lower_source(source: &Source, file: &str) -> Result<Program, FrontendError> {
    let config = lang_c::driver::Config::with_gcc();
    let parse = lang_c::driver::parse_preprocessed(&config, source.text.clone()).map_err(|e| {
        FrontendError {
            message: format!(
                "{}:{}:{}: syntax error, expected one of {}",
                file,
                source.line_of(e.offset),
                e.column,
                expected_list(&e.expected)
            ),
        }
    })?;
    let mut lw = Lowerer::new(source, file);
    lw.translation_unit(&parse.unit);
    lw.finish()
}

fn expected_list(set: &std::collections::HashSet<&'static str>) -> String {
    let mut v: Vec<_> = set.iter().map(|s| format!("`{s}`")).collect();
    v.sort();
    v.truncate(12);
    v.join(", ")
}

/// What an ordinary identifier denotes in a scope.
#[derive(Clone, Debug)]
enum Symbol {
    Var(VarId),
    Func(FuncId),
    Typedef(Type),
    EnumConst(i64),
    /// A name whose declaration could not be lowered, with the reason.
    Poison(String),
}

/// A function's signature, kept for argument conversion at calls.
#[derive(Clone, Debug, Default)]
struct Sig {
    params: Vec<Type>,
    ret: Option<Type>,
    variadic: bool,
    unsupported: Option<String>,
}

/// Per-function lowering state: the CFA under construction and its jump targets.
struct FnBuilder {
    id: FuncId,
    cfa: DiGraph<Loc, Edge>,
    cur: NodeIndex,
    exit: NodeIndex,
    ret: Type,
    breaks: Vec<NodeIndex>,
    continues: Vec<NodeIndex>,
    labels: HashMap<String, NodeIndex>,
    switches: Vec<SwitchCtx>,
}

#[derive(Default)]
struct SwitchCtx {
    cases: Vec<(i64, NodeIndex)>,
    default: Option<NodeIndex>,
}

/// The lowering pass over a whole translation unit.
pub(crate) struct Lowerer<'s> {
    src: &'s Source,
    file: String,
    structs: Vec<StructDef>,
    vars: Vec<VarInfo>,
    globals: Vec<VarId>,
    functions: Vec<Function>,
    sigs: Vec<Sig>,
    scopes: Vec<HashMap<String, Symbol>>,
    tags: Vec<HashMap<String, StructId>>,
    fb: Option<FnBuilder>,
    init: FnBuilder,
    global_errors: Vec<Unsup>,
    temp_count: u32,
}

impl<'s> Lowerer<'s> {
    fn new(src: &'s Source, file: &str) -> Self {
        let mut init_cfa = DiGraph::new();
        let entry = init_cfa.add_node(Loc::default());
        let exit = init_cfa.add_node(Loc::default());
        let init = FnBuilder {
            id: FuncId(0),
            cfa: init_cfa,
            cur: entry,
            exit,
            ret: Type::Void,
            breaks: vec![],
            continues: vec![],
            labels: HashMap::new(),
            switches: vec![],
        };
        let mut lw = Lowerer {
            src,
            file: file.to_string(),
            structs: vec![],
            vars: vec![],
            globals: vec![],
            functions: vec![],
            sigs: vec![],
            scopes: vec![HashMap::new()],
            tags: vec![HashMap::new()],
            fb: None,
            init,
            global_errors: vec![],
            temp_count: 0,
        };
        lw.declare_function("__shapecheck_init", Sig::default(), 0);
        lw
    }

    fn line(&self, span: lang_c::span::Span) -> u32 {
        self.src.line_of(span.start)
    }

    fn unsup<T>(&self, span: lang_c::span::Span, msg: impl Into<String>) -> Res<T> {
        Err(Unsup {
            msg: msg.into(),
            line: self.line(span),
        })
    }

    /// The builder of the function being lowered (the global initialiser outside functions).
    fn b(&mut self) -> &mut FnBuilder {
        match self.fb.as_mut() {
            Some(b) => b,
            None => &mut self.init,
        }
    }

    fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, name: &str, sym: Symbol) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), sym);
        }
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.tags.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
        self.tags.pop();
    }

    /// Adds an edge from the current location to a new one and moves there.
    fn emit(&mut self, op: Op, line: u32) {
        let b = self.b();
        let next = b.cfa.add_node(Loc::default());
        b.cfa.add_edge(b.cur, next, Edge { op, line });
        b.cur = next;
    }

    /// Adds an edge from the current location to `to` and continues at a fresh (unreachable)
    /// location.
    fn jump(&mut self, to: NodeIndex, line: u32) {
        let b = self.b();
        b.cfa.add_edge(b.cur, to, Edge { op: Op::Skip, line });
        b.cur = b.cfa.add_node(Loc::default());
    }

    fn new_node(&mut self) -> NodeIndex {
        self.b().cfa.add_node(Loc::default())
    }

    fn set_cur(&mut self, n: NodeIndex) {
        self.b().cur = n;
    }

    fn cur(&mut self) -> NodeIndex {
        self.b().cur
    }

    fn add_edge(&mut self, from: NodeIndex, to: NodeIndex, op: Op, line: u32) {
        self.b().cfa.add_edge(from, to, Edge { op, line });
    }

    fn new_var(&mut self, name: &str, ty: Type, kind: VarKind, line: u32) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarInfo {
            name: name.to_string(),
            ty,
            kind,
            line,
        });
        id
    }

    /// A compiler temporary of the current function.
    fn temp(&mut self, ty: Type, line: u32) -> Expr {
        self.temp_count += 1;
        let name = format!("__tmp{}", self.temp_count);
        let v = match self.fb.as_ref().map(|b| b.id) {
            Some(f) => {
                let v = self.new_var(&name, ty.clone(), VarKind::Local(f), line);
                self.functions[f.0 as usize].locals.push(v);
                v
            }
            None => {
                let v = self.new_var(&name, ty.clone(), VarKind::Global, line);
                self.globals.push(v);
                v
            }
        };
        Expr {
            kind: ExprKind::Var(v),
            ty,
        }
    }

    fn finish(mut self) -> Result<Program, FrontendError> {
        let main = match self.lookup("main") {
            Some(Symbol::Func(f)) if self.functions[f.0 as usize].defined => *f,
            _ => {
                return Err(FrontendError {
                    message: format!("{}: no definition of `main`", self.file),
                });
            }
        };
        self.finish_init(main);
        Ok(Program {
            structs: self.structs,
            vars: self.vars,
            globals: self.globals,
            init: FuncId(0),
            functions: self.functions,
            main,
            file: self.file,
        })
    }

    /// Completes the initialiser: report unsupported globals, call `main`, return.
    fn finish_init(&mut self, main: FuncId) {
        self.fb = None;
        if let Some(e) = self.global_errors.first().cloned() {
            self.emit(Op::Unsupported(e.msg), e.line);
        }
        let line = self.functions[main.0 as usize].line;
        let args = self.main_args(main);
        self.emit(
            Op::Call {
                lhs: None,
                callee: Callee::Func(main),
                args,
            },
            line,
        );
        let exit = self.init.exit;
        let cur = self.init.cur;
        self.init.cfa.add_edge(
            cur,
            exit,
            Edge {
                op: Op::Return(None),
                line,
            },
        );
        let f = &mut self.functions[0];
        f.cfa = std::mem::take(&mut self.init.cfa);
        f.entry = NodeIndex::new(0);
        f.exit = exit;
        f.defined = true;
        mark_loop_heads(&mut f.cfa, f.entry);
    }

    /// `main(int argc, char **argv)` gets argc = 1 and argv = NULL-like placeholder values.
    fn main_args(&self, main: FuncId) -> Vec<Expr> {
        self.sigs[main.0 as usize]
            .params
            .iter()
            .map(|t| Expr {
                kind: ExprKind::Const(i64::from(t.as_int().is_some())),
                ty: t.clone(),
            })
            .collect()
    }
}

/// Marks every location that is the target of a back edge (in DFS order from `entry`).
pub(crate) fn mark_loop_heads(cfa: &mut DiGraph<Loc, Edge>, entry: NodeIndex) {
    use petgraph::visit::{DfsEvent, depth_first_search};
    let mut heads = vec![];
    depth_first_search(&*cfa, Some(entry), |ev| {
        if let DfsEvent::BackEdge(_, to) = ev {
            heads.push(to);
        }
    });
    for h in heads {
        cfa[h].loop_head = true;
    }
}
