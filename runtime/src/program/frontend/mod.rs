//! The C front end: a C file in, a [`Program`] out.
//!
//! `.c` files go through the system preprocessor (`cc -E`), `.i` files are read as they are;
//! a pre-scan bounds the nesting (`nesting`), the system C compiler checks the text (`gate`),
//! lang-c parses it (GNU C), syntactic constraint checks run (`checks`), and the lowering
//! passes (`types`, `expr`, `stmt`, `decl`) turn the AST into one CFA per function. A
//! construct the IR cannot express does not stop the front end: it becomes an
//! [`Op::Unsupported`] edge naming the construct and its line, so only programs that can reach
//! it get an UNKNOWN verdict. Malformed input (a missing file, a preprocessor failure, an
//! error of the C compiler, a syntax error, a constraint violation the front end can tell, no
//! `main`) is a [`FrontendError`] of kind `Input`; a program nested deeper than the front end
//! takes is one of kind `Limit`.

mod checks;
mod decl;
mod expr;
mod gate;
mod layout;
mod library;
mod lifetime;
mod literal;
mod nesting;
mod source;
mod stmt;
mod types;

pub use source::Source;

use crate::program::ir::*;
use petgraph::graph::{DiGraph, NodeIndex};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::time::Instant;

/// Input the front end rejects: no verdict can be given.
#[derive(Debug, Clone)]
pub struct FrontendError {
    /// Bad input, or valid C beyond a limit of the front end.
    pub kind: FrontendErrorKind,
    /// What is wrong, with file and line when known.
    pub message: String,
}

/// Why the front end rejects a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrontendErrorKind {
    /// Bad input (a missing file, a preprocessor or compiler error, a syntax error, a
    /// constraint violation, no `main`): exit 2 without a verdict.
    #[default]
    Input,
    /// Valid C that exceeds an implementation limit (nesting deeper than
    /// `nesting::MAX_DEPTH`): UNKNOWN, with the message as the reason.
    Limit,
}

impl FrontendError {
    /// Bad input.
    pub fn input(message: impl Into<String>) -> Self {
        FrontendError {
            kind: FrontendErrorKind::Input,
            message: message.into(),
        }
    }

    /// A program beyond an implementation limit.
    pub fn limit(message: impl Into<String>) -> Self {
        FrontendError {
            kind: FrontendErrorKind::Limit,
            message: message.into(),
        }
    }
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

/// Reads, preprocesses, parses and lowers a C file in the default data model (ILP32).
pub fn load(path: &Path) -> Result<Program, FrontendError> {
    load_with(path, DataModel::default(), None)
}

/// A program from C source text (through a temporary file), for unit tests.
#[cfg(test)]
pub(crate) fn load_source(src: &str) -> Program {
    use std::io::Write;
    let mut f = tempfile::Builder::new()
        .suffix(".c")
        .tempfile()
        .expect("temp file");
    f.write_all(src.as_bytes()).expect("write");
    load(f.path()).expect("parses")
}

/// Reads, preprocesses, checks (nesting, then the C compiler, stopped at `deadline` if it runs
/// that long: the analysis then goes on without it), parses and lowers a C file in the given
/// data model.
pub fn load_with(
    path: &Path,
    model: DataModel,
    deadline: Option<Instant>,
) -> Result<Program, FrontendError> {
    let source = Source::load(path).map_err(|e| FrontendError::input(e.0))?;
    let file = path.display().to_string();
    check_nesting(&source)?;
    match gate::check(&source.raw, &file, deadline) {
        gate::Outcome::Rejected(errors) => return Err(FrontendError::input(errors)),
        gate::Outcome::Skipped(Some(note)) => eprintln!("note: {note}"),
        gate::Outcome::Passed | gate::Outcome::Skipped(None) => {}
    }
    parse_and_lower(&source, &file, model)
}

/// Parses and lowers preprocessed text in the default data model (used by tests); no C
/// compiler runs.
pub fn lower_source(source: &Source, file: &str) -> Result<Program, FrontendError> {
    lower_source_with(source, file, DataModel::default())
}

/// Parses and lowers preprocessed text in the given data model; no C compiler runs.
pub fn lower_source_with(
    source: &Source,
    file: &str,
    model: DataModel,
) -> Result<Program, FrontendError> {
    check_nesting(source)?;
    parse_and_lower(source, file, model)
}

/// A [`FrontendErrorKind::Limit`] error where the program nests deeper than the front end
/// can take (see `nesting`).
fn check_nesting(source: &Source) -> Result<(), FrontendError> {
    let Err(at) = nesting::check(&source.text) else {
        return Ok(());
    };
    let what = if nesting::signs_at(&source.text, at) {
        format!("more than {} + and - signs in a row", nesting::MAX_SIGNS)
    } else {
        format!("nesting depth {} exceeded", nesting::MAX_DEPTH)
    };
    Err(FrontendError::limit(format!(
        "implementation limit: {what} at {}:{}:{}",
        source.file_of(at),
        source.line_of(at),
        source.column_of(at)
    )))
}

fn parse_and_lower(
    source: &Source,
    file: &str,
    model: DataModel,
) -> Result<Program, FrontendError> {
    let config = lang_c::driver::Config::with_gcc();
    let parse = lang_c::driver::parse_preprocessed(&config, source.text.clone()).map_err(|e| {
        FrontendError::input(format!(
            "{}:{}:{}: syntax error, expected one of {}",
            file,
            source.line_of(e.offset),
            e.column,
            expected_list(&e.expected)
        ))
    })?;
    let violations = checks::check(&parse.unit);
    if !violations.is_empty() {
        return Err(FrontendError::input(located(source, &violations)));
    }
    let mut lw = Lowerer::new(source, file, model);
    lw.translation_unit(&parse.unit);
    lw.link_library();
    lw.finish()
}

/// How many errors of the front end's own checks a rejection shows.
const SHOWN_ERRORS: usize = 5;

/// `file:line:col: error: message` for the first errors (offsets in the preprocessed text).
fn located(source: &Source, errors: &[(usize, String)]) -> String {
    let mut lines: Vec<String> = (errors.iter().take(SHOWN_ERRORS))
        .map(|(at, msg)| {
            let (file, line, col) = (
                source.file_of(*at),
                source.line_of(*at),
                source.column_of(*at),
            );
            format!("{file}:{line}:{col}: error: {msg}")
        })
        .collect();
    if errors.len() > SHOWN_ERRORS {
        lines.push(format!("({} more errors)", errors.len() - SHOWN_ERRORS));
    }
    lines.join("\n")
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
    /// A variable-length array: the local pointer to its block and the local holding its
    /// size in bytes.
    Vla {
        ptr: VarId,
        size: VarId,
    },
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
    /// `break` targets with the scope depth around their loop or switch.
    breaks: Vec<(NodeIndex, usize)>,
    /// `continue` targets with the scope depth around their loop.
    continues: Vec<(NodeIndex, usize)>,
    labels: HashMap<String, NodeIndex>,
    /// The scope ids around each label's definition.
    label_scopes: HashMap<String, Vec<u32>>,
    /// Jumps not yet connected to their targets (see [`lifetime`]).
    exits: Vec<lifetime::Exit>,
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
    model: DataModel,
    structs: Vec<StructDef>,
    vars: Vec<VarInfo>,
    globals: Vec<VarId>,
    functions: Vec<Function>,
    sigs: Vec<Sig>,
    scopes: Vec<HashMap<String, Symbol>>,
    /// A unique id for each open scope, parallel to `scopes`.
    scope_ids: Vec<u32>,
    /// The number of scopes opened so far.
    scope_count: u32,
    /// The number of edges of the current CFA when each open scope began, parallel to
    /// `scopes`: a scope's locals occur only on the edges emitted after it.
    scope_edges: Vec<usize>,
    tags: Vec<HashMap<String, StructId>>,
    fb: Option<FnBuilder>,
    init: FnBuilder,
    global_errors: Vec<Unsup>,
    temp_count: u32,
    /// Globals declared only with `extern` so far.
    extern_only: std::collections::BTreeSet<VarId>,
    /// Globals with a definition (an initialiser or a declaration without `extern`).
    defined: std::collections::HashSet<VarId>,
    /// Constraint violations found while lowering (an undeclared identifier, a missing
    /// member): offset and message. Reported only when nothing was `lossy`.
    input_errors: RefCell<Vec<(usize, String)>>,
    /// Whether some construct could not be lowered: a declaration may then be missing from
    /// the symbol tables, and the `input_errors` are not certain.
    lossy: Cell<bool>,
    /// The 1-based column of the statement being lowered: the column of the edges emitted
    /// now (0 when unknown), for witnesses.
    column: u32,
    /// The line and column of the `)` of the call being emitted.
    close: Option<(u32, u32)>,
}

impl<'s> Lowerer<'s> {
    fn new(src: &'s Source, file: &str, model: DataModel) -> Self {
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
            label_scopes: HashMap::new(),
            exits: vec![],
            switches: vec![],
        };
        let mut lw = Lowerer {
            src,
            file: file.to_string(),
            model,
            structs: vec![],
            vars: vec![],
            globals: vec![],
            functions: vec![],
            sigs: vec![],
            scopes: vec![HashMap::new()],
            scope_ids: vec![0],
            scope_count: 1,
            scope_edges: vec![0],
            tags: vec![HashMap::new()],
            fb: None,
            init,
            global_errors: vec![],
            temp_count: 0,
            extern_only: Default::default(),
            defined: Default::default(),
            input_errors: RefCell::new(vec![]),
            lossy: Cell::new(false),
            column: 0,
            close: None,
        };
        lw.declare_function("__shapecheck_init", Sig::default(), 0);
        lw
    }

    fn line(&self, span: lang_c::span::Span) -> u32 {
        self.src.line_of(span.start)
    }

    /// The 1-based column where `span` starts.
    fn column_of(&self, span: lang_c::span::Span) -> u32 {
        u32::try_from(self.src.column_of(span.start)).unwrap_or(0)
    }

    /// Emits the call `op` whose expression is `span` (it ends with the closing `)`).
    fn emit_call(&mut self, op: Op, line: u32, span: lang_c::span::Span) {
        let end = span.end.saturating_sub(1);
        let column = u32::try_from(self.src.column_of(end)).unwrap_or(0);
        self.close = Some((self.src.line_of(end), column));
        self.emit(op, line);
    }

    fn unsup<T>(&self, span: lang_c::span::Span, msg: impl Into<String>) -> Res<T> {
        self.lossy.set(true);
        self.after_error(span, msg)
    }

    /// A construct that cannot be lowered because of an earlier error (the use of a name
    /// whose declaration failed): unsupported, but it says nothing new about the program.
    fn after_error<T>(&self, span: lang_c::span::Span, msg: impl Into<String>) -> Res<T> {
        Err(Unsup {
            msg: msg.into(),
            line: self.line(span),
        })
    }

    /// A constraint violation (bad input if nothing else in the unit is unsupported); the
    /// construct is also unsupported, so lowering goes on.
    fn input_error<T>(&self, span: lang_c::span::Span, msg: impl Into<String>) -> Res<T> {
        let msg = msg.into();
        self.input_errors
            .borrow_mut()
            .push((span.start, msg.clone()));
        self.after_error(span, msg)
    }

    /// Whether struct `s` certainly has no member `name`: it is complete and neither its
    /// fields (bit-fields are stored as `name:bitfield`) nor its anonymous members have it.
    fn lacks_member(&self, s: StructId, name: &str) -> bool {
        let def = &self.structs[s.0 as usize];
        def.complete
            && def.fields.iter().all(|f| {
                let own = f.name.strip_suffix(":bitfield").unwrap_or(&f.name);
                let anon = match f.ty {
                    Type::Struct(inner) if f.name.starts_with("<anon") => Some(inner),
                    _ => None,
                };
                own != name && anon.is_none_or(|inner| self.lacks_member(inner, name))
            })
    }

    /// The builder of the function being lowered (the global initialiser outside functions).
    fn b(&mut self) -> &mut FnBuilder {
        match self.fb.as_mut() {
            Some(b) => b,
            None => &mut self.init,
        }
    }

    /// The name of the function being lowered (empty outside functions).
    fn current_function_name(&self) -> &str {
        self.fb
            .as_ref()
            .map_or("", |b| self.functions[b.id.0 as usize].name.as_str())
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
        self.scope_ids.push(self.scope_count);
        self.scope_count += 1;
        let edges = self.b().cfa.edge_count();
        self.scope_edges.push(edges);
        self.tags.push(HashMap::new());
    }

    /// Closes the innermost scope, whose end is at `line`.
    fn pop_scope(&mut self, line: u32) {
        self.end_lifetimes(line);
        self.scopes.pop();
        self.scope_ids.pop();
        self.scope_edges.pop();
        self.tags.pop();
    }

    /// Adds an edge from the current location to a new one and moves there.
    fn emit(&mut self, op: Op, line: u32) {
        let next = self.b().cfa.add_node(Loc::default());
        let (column, close) = (self.column, self.close.take());
        let in_scope = self.locals_in_scope();
        let b = self.b();
        b.cfa.add_edge(
            b.cur,
            next,
            Edge {
                op,
                line,
                column,
                close,
                in_scope,
            },
        );
        b.cur = next;
    }

    /// The locals (and parameters) visible at the current point of the function body.
    fn locals_in_scope(&self) -> Vec<VarId> {
        let mut out: Vec<VarId> = self.scopes[1..]
            .iter()
            .flat_map(|s| s.values())
            .filter_map(|sym| match sym {
                Symbol::Var(x) => Some(*x),
                Symbol::Vla { ptr, .. } => Some(*ptr),
                _ => None,
            })
            .filter(|x| self.vars[x.0 as usize].kind != VarKind::Global)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Adds an edge from the current location to `to` and continues at a fresh (unreachable)
    /// location.
    fn jump(&mut self, to: NodeIndex, line: u32) {
        let from = self.cur();
        self.add_edge(from, to, Op::Skip, line);
        let fresh = self.new_node();
        self.set_cur(fresh);
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
        let column = self.column;
        let in_scope = self.locals_in_scope();
        self.b().cfa.add_edge(
            from,
            to,
            Edge {
                op,
                line,
                column,
                close: None,
                in_scope,
            },
        );
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
        let errors = self.input_errors.take();
        let lossy = self.lossy.get() || self.sigs.iter().any(|s| s.unsupported.is_some());
        if !errors.is_empty() && !lossy {
            return Err(FrontendError::input(located(self.src, &errors)));
        }
        let main = match self.lookup("main") {
            Some(Symbol::Func(f)) if self.functions[f.0 as usize].defined => *f,
            _ => {
                return Err(FrontendError::input(format!(
                    "{}: no definition of `main`",
                    self.file
                )));
            }
        };
        self.finish_init(main);
        let mut prog = Program {
            structs: self.structs,
            vars: self.vars,
            globals: self.globals,
            init: FuncId(0),
            functions: self.functions,
            main,
            file: self.file,
            model: self.model,
            alloc_may_fail: true,
        };
        crate::program::devirt::resolve(&mut prog);
        crate::program::links::retype(&mut prog);
        crate::program::temps::forward(&mut prog);
        crate::program::sra::scalarize(&mut prog);
        crate::program::holder::localize(&mut prog);
        Ok(prog)
    }

    /// Completes the initialiser: report unsupported globals, call `main`, return.
    fn finish_init(&mut self, main: FuncId) {
        self.fb = None;
        if let Some(e) = self.global_errors.first().cloned() {
            self.emit(Op::Unsupported(e.msg), e.line);
        }
        self.undefined_externs();
        let line = self.functions[main.0 as usize].line;
        let args = self.main_args(main);
        let line = line.max(1);
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
                column: 0,
                close: None,
                in_scope: vec![],
            },
        );
        let f = &mut self.functions[0];
        f.cfa = std::mem::take(&mut self.init.cfa);
        f.entry = NodeIndex::new(0);
        f.exit = exit;
        f.defined = true;
        mark_loop_heads(&mut f.cfa, f.entry);
    }

    /// The arguments of `main`. Parameters it never reads get `1` and `{"main", NULL}`.
    /// Otherwise `argc` is a nondeterministic value in `1..=MAIN_ARGC_MAX` and `argv[i]` for
    /// `i < argc` a nondeterministic string of at most `MAIN_ARG_LEN` characters (`argv[argc]`
    /// and the slots after it up to `MAIN_ARGC_MAX` are NULL); a caveat states the bound, so
    /// that no engine answers TRUE.
    fn main_args(&mut self, main: FuncId) -> Vec<Expr> {
        let params = self.sigs[main.0 as usize].params.clone();
        let vars = self.functions[main.0 as usize].params.clone();
        let used = vars.iter().any(|v| self.function_mentions(main, *v));
        let argc = match params.first() {
            Some(Type::Int(t)) if used => self.nondet_argc(*t),
            Some(t) => Expr {
                kind: ExprKind::Const(1),
                ty: t.clone(),
            },
            None => return vec![],
        };
        let mut out = vec![argc.clone()];
        for t in &params[1..] {
            out.push(match t {
                Type::Ptr(elem) if **elem == Type::Int(IntTy::CHAR).ptr_to() => {
                    self.argv(t, (used && argc.is_lvalue()).then_some(&argc))
                }
                _ => Expr {
                    kind: ExprKind::Const(0),
                    ty: t.clone(),
                },
            });
        }
        out
    }

    /// `extern` variables that no declaration of the file defines hold whatever another
    /// translation unit put there: integers get nondeterministic values, pointers (`stderr`)
    /// point to an object whose content is not modelled; other variables holding pointers
    /// cannot be modelled, so a program that uses one stops with UNKNOWN.
    fn undefined_externs(&mut self) {
        let undefined: Vec<VarId> = self.extern_only.iter().copied().collect();
        for v in undefined {
            let info = &self.vars[v.0 as usize];
            if only_integers(&self.structs, &info.ty) {
                let line = info.line;
                self.emit(Op::Havoc(v), line);
                continue;
            }
            if let Type::Ptr(_) = info.ty {
                let (line, ty) = (info.line, info.ty.clone());
                let name = Expr {
                    kind: ExprKind::Str(std::sync::Arc::new(literal::plain(&info.name))),
                    ty: Type::Int(IntTy::CHAR).ptr_to(),
                };
                let op = Op::Call {
                    lhs: Some(Expr {
                        kind: ExprKind::Var(v),
                        ty,
                    }),
                    callee: Callee::Builtin(Builtin::External),
                    args: vec![name],
                };
                self.emit(op, line);
                continue;
            }
            let used =
                (1..self.functions.len()).any(|f| self.function_mentions(FuncId(f as u32), v));
            if used {
                let msg = format!(
                    "extern variable `{}` with no definition in this file holds pointers",
                    info.name
                );
                let line = info.line;
                self.emit(Op::Unsupported(msg), line);
            }
        }
    }

    /// Whether variable `v` occurs on an edge of function `f`.
    fn function_mentions(&self, f: FuncId, v: VarId) -> bool {
        let cfa = &self.functions[f.0 as usize].cfa;
        cfa.edge_weights()
            .any(|e| e.op.exprs().iter().any(|x| x.mentions(v)))
    }

    /// A global `argc` in `1..=MAIN_ARGC_MAX`, set by a nondeterministic input.
    fn nondet_argc(&mut self, ty: IntTy) -> Expr {
        let why = format!(
            "main's arguments are modelled only up to argc = {MAIN_ARGC_MAX} and strings of \
             {MAIN_ARG_LEN} characters"
        );
        let op = Op::Call {
            lhs: None,
            callee: Callee::Builtin(Builtin::Caveat),
            args: vec![Expr {
                kind: ExprKind::Str(std::sync::Arc::new(literal::plain(&why))),
                ty: Type::Int(IntTy::CHAR).ptr_to(),
            }],
        };
        self.emit(op, 0);
        let argc = self.temp(Type::Int(ty), 0);
        self.emit_nondet(&argc);
        let le = |a: Expr, b: Expr| cmp(CmpOp::Le, a, b);
        let lo = le(Expr::int(1, ty), argc.clone());
        let hi = le(argc.clone(), Expr::int(MAIN_ARGC_MAX as i64, ty));
        self.emit_assume(and(lo, hi));
        argc
    }

    /// A global `argv` array: nondeterministic strings below `argc` (or `{"main"}` when
    /// `argc` is the constant 1), NULL from `argc` on.
    fn argv(&mut self, ptr: &Type, argc: Option<&Expr>) -> Expr {
        let elem = Type::Int(IntTy::CHAR).ptr_to();
        let slots = if argc.is_some() { MAIN_ARGC_MAX + 1 } else { 2 };
        let arr = self.temp(Type::Array(Box::new(elem.clone()), slots), 0);
        let null = Expr {
            kind: ExprKind::Const(0),
            ty: elem.clone(),
        };
        for i in 0..slots {
            let slot = self.element_of(&arr, i);
            let Some(argc) = argc else {
                let name = Expr {
                    kind: ExprKind::Str(std::sync::Arc::new(literal::plain("main"))),
                    ty: elem.clone(),
                };
                self.emit_assign(slot, if i == 0 { name } else { null.clone() });
                continue;
            };
            if i == MAIN_ARGC_MAX {
                self.emit_assign(slot, null.clone());
                continue;
            }
            let s = self.nondet_string();
            let below = cmp(CmpOp::Lt, Expr::int(i as i64, IntTy::INT), argc.clone());
            let (yes, no, join) = (self.new_node(), self.new_node(), self.new_node());
            let from = self.cur();
            let assume = |positive| Op::Assume {
                cond: below.clone(),
                positive,
            };
            self.add_edge(from, yes, assume(true), 0);
            self.add_edge(from, no, assume(false), 0);
            for (at, v) in [(yes, s), (no, null.clone())] {
                self.set_cur(at);
                self.emit_assign(slot.clone(), v);
                self.jump(join, 0);
            }
            self.set_cur(join);
        }
        Expr {
            ty: ptr.clone(),
            kind: ExprKind::AddrOf(Box::new(arr)),
        }
    }

    /// A global `char[MAIN_ARG_LEN + 1]` holding a nondeterministic string (no character
    /// after the first zero is nonzero); its address.
    fn nondet_string(&mut self) -> Expr {
        let n = MAIN_ARG_LEN + 1;
        let arr = self.temp(Type::Array(Box::new(Type::Int(IntTy::CHAR)), n), 0);
        let chars: Vec<Expr> = (0..n).map(|j| self.element_of(&arr, j)).collect();
        for c in &chars[..MAIN_ARG_LEN as usize] {
            self.emit_nondet(c);
        }
        self.emit_assign(
            chars[MAIN_ARG_LEN as usize].clone(),
            Expr::int(0, IntTy::CHAR),
        );
        for w in chars.windows(2).take(MAIN_ARG_LEN as usize - 1) {
            let zero = Expr::int(0, IntTy::CHAR);
            let a = cmp(CmpOp::Ne, w[0].clone(), zero.clone());
            let b = cmp(CmpOp::Eq, w[1].clone(), zero);
            let either = Expr {
                ty: Type::Int(IntTy::INT),
                kind: ExprKind::Binary(BinOp::Or, Box::new(a), Box::new(b)),
            };
            self.emit_assume(either);
        }
        let first = chars[0].clone();
        Expr {
            ty: Type::Int(IntTy::CHAR).ptr_to(),
            kind: ExprKind::AddrOf(Box::new(first)),
        }
    }

    /// `arr[i]` for an array lvalue.
    fn element_of(&self, arr: &Expr, i: u64) -> Expr {
        let Type::Array(elem, _) = &arr.ty else {
            return arr.clone();
        };
        let size = self.size_of(elem);
        let base = Expr {
            kind: ExprKind::AddrOf(Box::new(arr.clone())),
            ty: (**elem).clone().ptr_to(),
        };
        let p = Expr {
            ty: base.ty.clone(),
            kind: ExprKind::PtrAdd(
                Box::new(base),
                Box::new(Expr::int(i as i64, IntTy::INT)),
                size,
            ),
        };
        Expr {
            kind: ExprKind::Deref(Box::new(p)),
            ty: (**elem).clone(),
        }
    }

    fn emit_assign(&mut self, lhs: Expr, rhs: Expr) {
        self.emit(Op::Assign { lhs, rhs }, 0);
    }

    fn emit_nondet(&mut self, lhs: &Expr) {
        let op = Op::Call {
            lhs: Some(lhs.clone()),
            callee: Callee::Builtin(Builtin::Nondet),
            args: vec![],
        };
        self.emit(op, 0);
    }

    fn emit_assume(&mut self, cond: Expr) {
        let op = Op::Call {
            lhs: None,
            callee: Callee::Builtin(Builtin::Assume),
            args: vec![cond],
        };
        self.emit(op, 0);
    }
}

/// The largest `argc` the model of `main`'s arguments gives.
const MAIN_ARGC_MAX: u64 = 3;
/// The longest string the model of `main`'s arguments gives.
const MAIN_ARG_LEN: u64 = 8;

/// Whether every scalar inside a type is an integer.
fn only_integers(structs: &[StructDef], ty: &Type) -> bool {
    match ty {
        Type::Int(_) => true,
        Type::Array(t, _) => only_integers(structs, t),
        Type::Struct(s) => structs[s.0 as usize]
            .fields
            .iter()
            .all(|f| only_integers(structs, &f.ty)),
        Type::Void | Type::Ptr(_) | Type::Func => false,
    }
}

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    Expr {
        kind: ExprKind::Cmp(op, Box::new(a), Box::new(b)),
        ty: Type::Int(IntTy::INT),
    }
}

fn and(a: Expr, b: Expr) -> Expr {
    Expr {
        ty: Type::Int(IntTy::INT),
        kind: ExprKind::Binary(BinOp::And, Box::new(a), Box::new(b)),
    }
}

/// Marks every location that is the target of a back edge (in DFS order from `entry`). The
/// search keeps its own stack (petgraph's `depth_first_search` recurses once per location on
/// the path, which overflows the thread's stack on a long straight-line function); it visits
/// successors in the same order, so it finds the same back edges.
pub(crate) fn mark_loop_heads(cfa: &mut DiGraph<Loc, Edge>, entry: NodeIndex) {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; cfa.node_count()];
    let mut heads = vec![];
    let successors = |u: NodeIndex| cfa.neighbors(u).collect::<Vec<_>>();
    state[entry.index()] = OPEN;
    let mut stack = vec![(entry, successors(entry), 0usize)];
    while let Some((u, next, i)) = stack.last_mut() {
        let Some(&v) = next.get(*i) else {
            state[u.index()] = DONE;
            stack.pop();
            continue;
        };
        *i += 1;
        match state[v.index()] {
            NEW => {
                state[v.index()] = OPEN;
                let succ = successors(v);
                stack.push((v, succ, 0));
            }
            OPEN => heads.push(v),
            _ => {}
        }
    }
    for h in heads {
        cfa[h].loop_head = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::cfa;

    fn lower(text: &str) -> Program {
        let src = Source::from_text(text.to_string(), "t.c");
        lower_source(&src, "t.c").expect("lowering succeeds")
    }

    fn ops(p: &Program, f: &str) -> Vec<(u32, String)> {
        let f = p.func(p.func_by_name(f).unwrap());
        f.cfa
            .edge_weights()
            .map(|e| (e.line, cfa::op(p, &e.op)))
            .collect()
    }

    #[test]
    fn field_accesses_at_any_depth() {
        let p = lower(
            "struct n { int v; struct n *next; struct n *prev; };\n\
             void f(struct n *p, struct n *q) {\n  p->next->prev = q;\n  (*p).v = q->next->v;\n}\n\
             int main(void) { return 0; }\n",
        );
        let ops = ops(&p, "f");
        assert!(ops.contains(&(3, "p->next->prev = q".into())), "{ops:?}");
        assert!(ops.contains(&(4, "p->v = q->next->v".into())), "{ops:?}");
    }

    #[test]
    fn a_local_whose_address_leaves_its_block_dies_on_every_exit() {
        let p = lower(
            "int main(void) {\n  int *p = 0;\n  while (p == 0) {\n    int t;\n    int a[2];\n    \
             a[0] = 1;\n    p = &t;\n    if (a[0])\n      break;\n    if (t)\n      goto out;\n  \
             }\n out:\n  return 0;\n}\n",
        );
        let ends: Vec<(u32, String)> = ops(&p, "main")
            .into_iter()
            .filter(|(_, o)| o.contains("scope_end"))
            .collect();
        // `t` dies at the break (line 9), the goto (line 11) and the end of the body (line
        // 12); `a` is only indexed, so it needs no scope end.
        let lines: Vec<u32> = ends.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines.len(), 3, "{ends:?}");
        for l in [9, 11, 12] {
            assert!(lines.contains(&l), "{ends:?}");
        }
        assert!(ends.iter().all(|(_, o)| o.contains("&t")), "{ends:?}");
    }

    #[test]
    fn struct_layout_is_ilp32() {
        let p = lower(
            "struct s { char c; int *p; long long x; short h; };\nint main(void) { return sizeof(struct s); }\n",
        );
        let s = &p.structs[0];
        let offs: Vec<u64> = s.fields.iter().map(|f| f.offset).collect();
        assert_eq!(offs, vec![0, 4, 8, 16]);
        assert_eq!(s.size, 20);
    }

    #[test]
    fn short_circuit_becomes_branches() {
        let p = lower(
            "struct n { int v; };\nint main(void) {\n  struct n *p = 0;\n  if (p && p->v) return 1;\n  return 0;\n}\n",
        );
        let ops = ops(&p, "main");
        assert!(ops.contains(&(4, "[p]".into())), "{ops:?}");
        assert!(ops.contains(&(4, "[p->v]".into())), "{ops:?}");
    }

    #[test]
    fn unsupported_statement_is_an_edge_with_its_line() {
        let p = lower(
            "int main(void) {\n  int x = 0;\n  __asm__(\"movl $1, %eax\");\n  return x;\n}\n",
        );
        let ops = ops(&p, "main");
        assert!(
            ops.contains(&(
                3,
                "unsupported: inline assembly that writes the program's state".into()
            )),
            "{ops:?}"
        );
    }

    #[test]
    fn loops_mark_their_heads() {
        let p = lower("int main(void) {\n  int i;\n  for (i = 0; i < 3; i++) ;\n  return i;\n}\n");
        let f = p.func(p.main);
        assert_eq!(f.cfa.node_weights().filter(|l| l.loop_head).count(), 1);
    }

    fn skip_edge() -> Edge {
        Edge {
            op: Op::Skip,
            line: 0,
            column: 0,
            close: None,
            in_scope: vec![],
        }
    }

    /// The loop heads petgraph's recursive depth-first search finds (the old definition).
    fn recursive_heads(cfa: &DiGraph<Loc, Edge>, entry: NodeIndex) -> Vec<usize> {
        use petgraph::visit::{DfsEvent, depth_first_search};
        let mut heads = vec![];
        depth_first_search(cfa, Some(entry), |ev| {
            if let DfsEvent::BackEdge(_, to) = ev {
                heads.push(to.index());
            }
        });
        heads.sort();
        heads.dedup();
        heads
    }

    #[test]
    fn loop_heads_are_those_of_a_recursive_depth_first_search() {
        // Graphs of 2 to 13 locations with pseudo-random edges (irreducible ones too, where
        // the order of the search decides which location is the head).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for _ in 0..400 {
            let n = 2 + next(12);
            let mut cfa: DiGraph<Loc, Edge> = DiGraph::new();
            let nodes: Vec<NodeIndex> = (0..n).map(|_| cfa.add_node(Loc::default())).collect();
            for _ in 0..next(3 * n) {
                cfa.add_edge(nodes[next(n)], nodes[next(n)], skip_edge());
            }
            let want = recursive_heads(&cfa, nodes[0]);
            mark_loop_heads(&mut cfa, nodes[0]);
            let got: Vec<usize> = (0..n).filter(|&i| cfa[nodes[i]].loop_head).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn a_long_straight_line_function_marks_its_loop_heads_without_recursion() {
        // 300000 locations in a row, then back to the first: a recursive search would need a
        // stack frame per location (the test thread has 2 MiB).
        let mut cfa: DiGraph<Loc, Edge> = DiGraph::new();
        let first = cfa.add_node(Loc::default());
        let mut last = first;
        for _ in 0..300_000 {
            let n = cfa.add_node(Loc::default());
            cfa.add_edge(last, n, skip_edge());
            last = n;
        }
        cfa.add_edge(last, first, skip_edge());
        mark_loop_heads(&mut cfa, first);
        let heads: Vec<usize> = cfa
            .node_indices()
            .filter(|&i| cfa[i].loop_head)
            .map(|i| i.index())
            .collect();
        assert_eq!(heads, vec![first.index()]);
    }

    #[test]
    fn a_block_after_many_statements_still_ends_its_locals() {
        // The scan for escaping addresses starts where the block begins: a block late in a
        // function, one whose address use sits in a nested block, and a static local whose
        // initialiser is lowered elsewhere while the block is open.
        let p = lower(
            "int main(void) {\n  int *p = 0, *q = 0, x = 0;\n  x++; x++; x++; x++;\n  {\n    \
             int t;\n    static int s = 3;\n    { p = &t; q = &s; }\n    x = *p;\n  }\n  return x;\n}\n",
        );
        let ends: Vec<(u32, String)> = ops(&p, "main")
            .into_iter()
            .filter(|(_, o)| o.contains("scope_end"))
            .collect();
        assert_eq!(ends.len(), 1, "{ends:?}");
        assert_eq!(ends[0].0, 9, "{ends:?}");
        assert!(ends[0].1.contains("&t"), "{ends:?}");
    }

    #[test]
    fn switch_dispatch_tests_each_case() {
        let p = lower(
            "int main(void) {\n  int x = 2, y = 0;\n  switch (x) { case 1: y = 1; break; case 2: y = 2; default: y = 3; }\n  return y;\n}\n",
        );
        let ops = ops(&p, "main");
        assert!(ops.iter().any(|(_, o)| o.contains("== 1")), "{ops:?}");
        assert!(ops.iter().any(|(_, o)| o.contains("== 2")), "{ops:?}");
    }

    /// The error of lowering `text` (as `t.c`, no C compiler), which must be bad input.
    fn input_error(text: &str) -> String {
        let src = Source::from_text(text.to_string(), "t.c");
        let e = lower_source(&src, "t.c").expect_err("an input error");
        assert_eq!(e.kind, FrontendErrorKind::Input, "{}", e.message);
        e.message
    }

    #[test]
    fn misplaced_jumps_and_labels_are_input_errors() {
        let e = input_error("int main(void) {\n  goto nowhere;\n  return 0;\n}\n");
        assert_eq!(e, "t.c:2:3: error: label `nowhere` used but not defined");
        let e = input_error("int main(void) {\n  int x = 1; break;\n  continue;\n}\n");
        assert_eq!(
            e,
            "t.c:2:14: error: `break` statement not within a loop or switch\n\
             t.c:3:3: error: `continue` statement not within a loop"
        );
        let e = input_error("int main(void) { case 1: return 0; }\n");
        assert_eq!(e, "t.c:1:18: error: `case` label not within a switch");
    }

    #[test]
    fn duplicate_cases_undeclared_names_and_missing_members_are_input_errors() {
        let e = input_error(
            "int main(void) {\n  int k = 1;\n  switch (k) { case 1: k = 2; break; case 1: k = 3; }\n  return k;\n}\n",
        );
        assert_eq!(e, "t.c:3:43: error: duplicate case value `1`");
        let e = input_error("int main(void) {\n  int x = y;\n  return x == 0;\n}\n");
        assert_eq!(e, "t.c:2:11: error: undeclared identifier `y`");
        let e = input_error(
            "struct s { int a; struct { int b; }; int c : 3; };\n\
             int main(void) { struct s v; v.b = 1; v.zzz = 1; return v.a; }\n",
        );
        assert_eq!(e, "t.c:2:39: error: no field `zzz` in `struct s`");
    }

    #[test]
    fn names_the_lowering_may_have_lost_are_not_input_errors() {
        // K&R parameters are not bound; a struct with a floating-point field stays
        // incomplete; bit-fields are not accessible: all unsupported, none bad input.
        for text in [
            "int f(a) int a; { return a; }\nint main(void) { return f(1); }\n",
            "struct s { float f; int a; };\nint main(void) { struct s v; v.a = 1; return v.a; }\n",
            "struct s { int b : 3; };\nint main(void) { struct s v; v.b = 1; return v.b; }\n",
            "float g;\nint main(void) { return y; }\n",
        ] {
            let src = Source::from_text(text.to_string(), "t.c");
            let p = lower_source(&src, "t.c");
            assert!(p.is_ok(), "{text}: {}", p.err().unwrap().message);
        }
    }

    #[test]
    fn syntax_errors_are_input_errors() {
        let src = Source::from_text("int main( { return 0; }\n".into(), "bad.c");
        let err = lower_source(&src, "bad.c").unwrap_err();
        assert!(err.message.starts_with("bad.c:1:"), "{}", err.message);
    }
}
