//! The program IR: C types with their layout in the program's data model (ILP32 or LP64),
//! side-effect-free expressions, and one control-flow automaton (a petgraph graph) per function
//! whose edges carry operations.
//!
//! The front end (`crate::program::frontend`) produces a [`Program`]; the engines (`crate::explicit::explore`,
//! `crate::explicit::exec`) consume it. Expressions here never contain calls, assignments or
//! short-circuit operators: lowering has already turned those into CFA edges.

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use std::fmt;

/// Index of a variable in [`Program::vars`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a function in [`Program::functions`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// Index of a struct or union definition in [`Program::structs`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// A machine integer type: width in bits and signedness.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntTy {
    /// 8, 16, 32 or 64.
    pub bits: u8,
    /// Whether arithmetic and comparisons are signed.
    pub signed: bool,
    /// Whether this is `_Bool` (conversion to it tests against zero).
    pub boolean: bool,
}

impl IntTy {
    /// `int` in ILP32.
    pub const INT: IntTy = IntTy::new(32, true);
    /// `unsigned int` in ILP32.
    pub const UINT: IntTy = IntTy::new(32, false);
    /// `_Bool`, stored as one unsigned byte.
    pub const BOOL: IntTy = IntTy {
        bits: 8,
        signed: false,
        boolean: true,
    };
    /// `char` (signed on x86).
    pub const CHAR: IntTy = IntTy::new(8, true);
    /// `long long`.
    pub const LLONG: IntTy = IntTy::new(64, true);

    /// A non-boolean integer type.
    pub const fn new(bits: u8, signed: bool) -> IntTy {
        IntTy {
            bits,
            signed,
            boolean: false,
        }
    }

    /// Size in bytes.
    pub fn size(self) -> u64 {
        u64::from(self.bits / 8)
    }
}

/// The sizes of C's integer and pointer types: SV-COMP's two data models.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// 32-bit `int`, `long` and pointers (i386; SV-COMP's default for most heap tasks).
    #[default]
    Ilp32,
    /// 32-bit `int`, 64-bit `long` and pointers (x86-64 Linux).
    Lp64,
}

impl DataModel {
    /// Size of a pointer in bytes.
    pub fn ptr_bytes(self) -> u64 {
        match self {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        }
    }

    /// Width of a pointer (and of `long`, `size_t`, `ptrdiff_t`) in bits.
    pub fn ptr_bits(self) -> u8 {
        (self.ptr_bytes() * 8) as u8
    }

    /// `long` / `unsigned long`.
    pub fn long(self, signed: bool) -> IntTy {
        IntTy::new(self.ptr_bits(), signed)
    }

    /// `size_t` (the type of `sizeof`).
    pub fn size_t(self) -> IntTy {
        self.long(false)
    }

    /// `ptrdiff_t` (the type of a pointer difference).
    pub fn ptrdiff_t(self) -> IntTy {
        self.long(true)
    }

    /// Alignment of an integer type of `size` bytes (i386 aligns 64-bit integers to 4).
    pub fn int_align(self, size: u64) -> u64 {
        match self {
            DataModel::Ilp32 => size.clamp(1, 4),
            DataModel::Lp64 => size.clamp(1, 16),
        }
    }

    /// The SV-COMP name (`ILP32`, `LP64`).
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// Parses an SV-COMP data model name (case-insensitive).
    pub fn parse(s: &str) -> Option<DataModel> {
        match s.to_ascii_uppercase().as_str() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            _ => None,
        }
    }
}

impl fmt::Display for IntTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", if self.signed { "i" } else { "u" }, self.bits)
    }
}

/// A C type after typedef resolution.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// Any integer type, enums and `_Bool` included.
    Int(IntTy),
    /// Pointer to the given type.
    Ptr(Box<Type>),
    /// A struct or union.
    Struct(StructId),
    /// A fixed-size array.
    Array(Box<Type>, u64),
    /// A function type (only behind a pointer or as a declaration).
    Func,
}

impl Type {
    /// Pointer to `self`.
    pub fn ptr_to(self) -> Type {
        Type::Ptr(Box::new(self))
    }

    /// The pointee of a pointer type.
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr(t) => Some(t),
            _ => None,
        }
    }

    /// Whether values of this type are scalars held in one memory cell.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Ptr(_))
    }

    /// The integer type, if this is one.
    pub fn as_int(&self) -> Option<IntTy> {
        match self {
            Type::Int(i) => Some(*i),
            _ => None,
        }
    }
}

/// A field of a struct or union, with its byte offset.
#[derive(Clone, Debug)]
pub struct Field {
    /// Field name (anonymous members get a synthetic name).
    pub name: String,
    /// Field type.
    pub ty: Type,
    /// Offset in bytes from the start of the struct (for a bit-field: of its unit).
    pub offset: u64,
    /// For a bit-field: where its bits lie in the unit at `offset`.
    pub bits: Option<BitSpec>,
}

/// The place of a bit-field: `width` bits from bit `shift` (counted from the least
/// significant bit, x86 being little-endian) of an unsigned unit of `unit` bits, which the
/// neighbouring bit-fields of the struct share.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitSpec {
    /// The unit's type (unsigned, 8 to 64 bits).
    pub unit: IntTy,
    /// The lowest bit of the field in the unit.
    pub shift: u8,
    /// The number of bits.
    pub width: u8,
}

/// A struct or union definition with its layout in the data model.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// `struct node`, or a synthetic name for anonymous structs.
    pub name: String,
    /// Whether this is a union (all fields at offset 0).
    pub is_union: bool,
    /// Fields in declaration order; empty until the definition is seen.
    pub fields: Vec<Field>,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// Whether the body has been seen.
    pub complete: bool,
}

/// Where a variable lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// A global (or a function-local `static`): one block for the whole run.
    Global,
    /// A local or parameter of the given function: one block per activation.
    Local(FuncId),
}

/// A program variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// Source name (locals of inner scopes are made unique with a suffix).
    pub name: String,
    /// Declared type.
    pub ty: Type,
    /// Global or local.
    pub kind: VarKind,
    /// Declaration line.
    pub line: u32,
}

/// Unary operators on integers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnOp {
    /// Two's-complement negation.
    Neg,
    /// Bitwise complement.
    Not,
}

/// Binary arithmetic operators on integers (operands already converted to one type).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

/// Comparison operators; the result is an `int` 0 or 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The comparison that holds exactly when `self` does not.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }
}

/// A side-effect-free expression with its type.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression computes.
    pub kind: ExprKind,
    /// Its C type after conversions.
    pub ty: Type,
}

/// The forms of [`Expr`]. `Var`, `Deref` and `Field` are lvalues; used as rvalues they read
/// memory.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant (bits as an i64), or a null/absolute pointer when `ty` is a pointer.
    Const(i64),
    /// A variable (lvalue).
    Var(VarId),
    /// `*e` (lvalue).
    Deref(Box<Expr>),
    /// `e.f` on an lvalue of struct type (lvalue); `p->f` is `Field(Deref(p))`.
    Field(Box<Expr>, u64, String),
    /// A bit-field (lvalue): the bits `spec` of the unit lvalue (a `Field` of unsigned
    /// integer type). Reading extracts them (sign-extended when the expression's type is
    /// signed); assigning writes them into the unit and keeps its other bits.
    BitField(Box<Expr>, BitSpec),
    /// `&e` of an lvalue; also array-to-pointer decay.
    AddrOf(Box<Expr>),
    /// The address of a function.
    FuncAddr(FuncId),
    /// The address of a string literal's read-only block; the literal's code units (bytes
    /// for `"..."`, 16 or 32-bit units for wide literals) without the terminating zero,
    /// decoded by the front end.
    Str(std::sync::Arc<StrLit>),
    /// Unary integer operation.
    Unary(UnOp, Box<Expr>),
    /// Binary integer operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Comparison of two integers or two pointers.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// Conversion to `ty` (integer to integer, pointer to pointer, integer to pointer, ...).
    Cast(Box<Expr>),
    /// `p + i` scaled by the element size in bytes.
    PtrAdd(Box<Expr>, Box<Expr>, u64),
    /// `(p - q) / size`.
    PtrDiff(Box<Expr>, Box<Expr>, u64),
}

/// A decoded string literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StrLit {
    /// The element type (`char`, or `wchar_t`/`char16_t`/`char32_t` for wide literals).
    pub elem: IntTy,
    /// The code units, without the terminating zero.
    pub units: Vec<u32>,
}

impl Expr {
    /// An integer constant of type `ty`.
    pub fn int(v: i64, ty: IntTy) -> Expr {
        Expr {
            kind: ExprKind::Const(v),
            ty: Type::Int(ty),
        }
    }

    /// Whether this is the constant 0 (NULL), through casts.
    pub fn is_null_constant(&self) -> bool {
        match &self.kind {
            ExprKind::Const(0) => true,
            ExprKind::Cast(a) => a.is_null_constant(),
            _ => false,
        }
    }

    /// Whether this expression denotes a memory location.
    pub fn is_lvalue(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::BitField(..)
        )
    }

    /// The same expression with each direct subexpression replaced by `f` of it.
    pub fn map_children(&self, f: &mut dyn FnMut(&Expr) -> Expr) -> Expr {
        let mut b = |x: &Expr| Box::new(f(x));
        let kind = match &self.kind {
            ExprKind::Deref(a) => ExprKind::Deref(b(a)),
            ExprKind::Field(a, o, n) => ExprKind::Field(b(a), *o, n.clone()),
            ExprKind::BitField(a, s) => ExprKind::BitField(b(a), *s),
            ExprKind::AddrOf(a) => ExprKind::AddrOf(b(a)),
            ExprKind::Unary(o, a) => ExprKind::Unary(*o, b(a)),
            ExprKind::Cast(a) => ExprKind::Cast(b(a)),
            ExprKind::Binary(o, x, y) => ExprKind::Binary(*o, b(x), b(y)),
            ExprKind::Cmp(o, x, y) => ExprKind::Cmp(*o, b(x), b(y)),
            ExprKind::PtrAdd(x, y, s) => ExprKind::PtrAdd(b(x), b(y), *s),
            ExprKind::PtrDiff(x, y, s) => ExprKind::PtrDiff(b(x), b(y), *s),
            k @ (ExprKind::Const(_)
            | ExprKind::Var(_)
            | ExprKind::FuncAddr(_)
            | ExprKind::Str(_)) => k.clone(),
        };
        Expr {
            kind,
            ty: self.ty.clone(),
        }
    }

    /// Calls `f` on this expression and every subexpression, parents first.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            f(e);
            match &e.kind {
                ExprKind::Deref(a)
                | ExprKind::Field(a, _, _)
                | ExprKind::BitField(a, _)
                | ExprKind::AddrOf(a)
                | ExprKind::Unary(_, a)
                | ExprKind::Cast(a) => stack.push(a),
                ExprKind::Binary(_, a, b)
                | ExprKind::Cmp(_, a, b)
                | ExprKind::PtrAdd(a, b, _)
                | ExprKind::PtrDiff(a, b, _) => {
                    stack.push(b);
                    stack.push(a);
                }
                ExprKind::Const(_)
                | ExprKind::Var(_)
                | ExprKind::FuncAddr(_)
                | ExprKind::Str(_) => {}
            }
        }
    }

    /// Whether the variable `v` occurs in this expression.
    pub fn mentions(&self, v: VarId) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= matches!(e.kind, ExprKind::Var(x) if x == v));
        found
    }

    /// The text of a string literal expression (`None` for any other expression).
    pub fn literal_text(&self) -> Option<String> {
        match &self.kind {
            ExprKind::Str(s) => Some(
                s.units
                    .iter()
                    .map(|u| char::from_u32(*u).unwrap_or('?'))
                    .collect(),
            ),
            ExprKind::Cast(e) => e.literal_text(),
            _ => None,
        }
    }
}

/// How a heap or stack block is allocated.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AllocKind {
    /// `malloc`: contents uninitialised; may fail (returns NULL) unless the program's
    /// `alloc_may_fail` says otherwise.
    Malloc,
    /// `calloc`: contents zero; may fail like `malloc`.
    Calloc,
    /// `alloca`: a stack block released when the frame returns.
    Alloca,
}

/// The SV-COMP error events.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCall {
    /// `reach_error()`.
    ReachError,
    /// `__VERIFIER_error()`.
    VerifierError,
    /// A failing `assert` (`__assert_fail`).
    AssertFail,
}

/// Library functions with built-in semantics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `__VERIFIER_nondet_*` returning the given type.
    Nondet,
    /// `__VERIFIER_assume(c)`.
    Assume,
    /// An error event.
    Error(ErrorCall),
    /// `malloc`, `calloc`, `alloca`.
    Alloc(AllocKind),
    /// `free(p)`.
    Free,
    /// `abort()`.
    Abort,
    /// `exit(n)`.
    Exit,
    /// `memset(p, c, n)`.
    Memset,
    /// `memcpy(d, s, n)`.
    Memcpy,
    /// `__shapecheck_block_size(p)`: the size of the heap block `p` points to the start of
    /// (what `realloc` copies); a `p` that `free` would reject is a valid-free violation.
    BlockSize,
    /// `__shapecheck_unsupported("what")`: a construct the library does not model; the run
    /// stops there, as at an unsupported construct of the program.
    Unsupported,
    /// `__shapecheck_external("name")`: a pointer to an object defined outside the program
    /// (an `extern` pointer such as `stderr` with no definition); accessing it stops the run.
    External,
    /// `__shapecheck_caveat("why")`: the run goes on, but what follows is modelled only up
    /// to the bound or under the assumption the literal states, so an engine whose
    /// exploration reaches it may answer FALSE but not TRUE.
    Caveat,
    /// `__shapecheck_scope_end(&v)`: the block that declares local `v` is left, so `v`'s
    /// object dies (pointers to it dangle); the next entry to the block gets a new one.
    /// `__shapecheck_scope_end(p)` for a variable-length array's pointer `p`: its `alloca`
    /// block dies.
    ScopeEnd,
}

/// The target of a call.
#[derive(Clone, Debug)]
pub enum Callee {
    /// A function with a body in this program.
    Func(FuncId),
    /// A library function with built-in semantics.
    Builtin(Builtin),
}

/// An operation on a CFA edge.
#[derive(Clone, Debug)]
pub enum Op {
    /// No effect.
    Skip,
    /// `lhs = rhs` for scalars and structs.
    Assign {
        /// Target lvalue.
        lhs: Expr,
        /// Value.
        rhs: Expr,
    },
    /// Continue only if `(cond != 0) == positive`.
    Assume {
        /// A scalar condition.
        cond: Expr,
        /// Which branch this edge is.
        positive: bool,
    },
    /// Give a variable an indeterminate value (a declaration without initialiser).
    Havoc(VarId),
    /// A call, optionally storing the result.
    Call {
        /// Where the result goes.
        lhs: Option<Expr>,
        /// What is called.
        callee: Callee,
        /// Arguments, already side-effect free.
        args: Vec<Expr>,
    },
    /// A call through a function pointer.
    CallPtr {
        /// Where the result goes.
        lhs: Option<Expr>,
        /// The pointer expression.
        target: Expr,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// Return from the current function.
    Return(Option<Expr>),
    /// A construct the IR cannot express: reaching it makes the verdict UNKNOWN.
    Unsupported(String),
}

impl Op {
    /// The function a direct call calls.
    pub fn callee(&self) -> Option<FuncId> {
        match self {
            Op::Call {
                callee: Callee::Func(f),
                ..
            } => Some(*f),
            _ => None,
        }
    }

    /// The same operation with each expression replaced by `f` of it (a `Havoc`'s variable
    /// is left alone).
    pub fn map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Expr) -> Op {
        match self {
            Op::Assign { lhs, rhs } => Op::Assign {
                lhs: f(lhs),
                rhs: f(rhs),
            },
            Op::Assume { cond, positive } => Op::Assume {
                cond: f(cond),
                positive: *positive,
            },
            Op::Call { lhs, callee, args } => Op::Call {
                lhs: lhs.as_ref().map(&mut *f),
                callee: callee.clone(),
                args: args.iter().map(&mut *f).collect(),
            },
            Op::CallPtr { lhs, target, args } => Op::CallPtr {
                lhs: lhs.as_ref().map(&mut *f),
                target: f(target),
                args: args.iter().map(&mut *f).collect(),
            },
            Op::Return(e) => Op::Return(e.as_ref().map(f)),
            Op::Havoc(_) | Op::Skip | Op::Unsupported(_) => self.clone(),
        }
    }

    /// The expressions the operation reads or writes (left-hand sides included).
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Op::Assign { lhs, rhs } => vec![lhs, rhs],
            Op::Assume { cond, .. } => vec![cond],
            Op::Call { lhs, args, .. } => lhs.iter().chain(args).collect(),
            Op::CallPtr { lhs, target, args } => lhs.iter().chain([target]).chain(args).collect(),
            Op::Return(Some(e)) => vec![e],
            Op::Return(None) | Op::Skip | Op::Havoc(_) | Op::Unsupported(_) => vec![],
        }
    }
}

/// An edge of a CFA: an operation and the source line it comes from.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The operation.
    pub op: Op,
    /// Source line (in the user's file) of the statement.
    pub line: u32,
    /// 1-based column of the statement in that line (0 when unknown): where a witness's
    /// waypoint for the edge points.
    pub column: u32,
    /// For a call: the line and 1-based column of the `)` closing its arguments, where a
    /// witness's `function_return` waypoint points.
    pub close: Option<(u32, u32)>,
    /// The locals and parameters in scope where the edge was made (a block's locals only
    /// inside their block): passing an edge without a local in scope ends the local's
    /// lifetime, and at a call that ends the run those in scope stay reachable roots.
    pub in_scope: Vec<VarId>,
}

/// A control location.
#[derive(Clone, Debug, Default)]
pub struct Loc {
    /// Whether a back edge enters this location (a loop head): states are stored here for
    /// coverage.
    pub loop_head: bool,
}

/// A function's control-flow automaton.
#[derive(Clone, Debug)]
pub struct Function {
    /// Name.
    pub name: String,
    /// Parameters in order.
    pub params: Vec<VarId>,
    /// All locals, parameters included.
    pub locals: Vec<VarId>,
    /// Return type.
    pub ret: Type,
    /// The automaton; empty for declarations without a body.
    pub cfa: DiGraph<Loc, Edge>,
    /// Entry location.
    pub entry: NodeIndex,
    /// Exit location (after the implicit return).
    pub exit: NodeIndex,
    /// Whether the function has a body.
    pub defined: bool,
    /// For a variadic definition: the hidden `char *` local that the caller sets to the
    /// block holding the arguments after the named parameters (`va_start` reads it).
    pub va_area: Option<VarId>,
    /// Whether the body comes from shapecheck's C library (`frontend/libc.c`): violations in
    /// it are reported at the program's call, and traces show the call only.
    pub library: bool,
    /// Definition line.
    pub line: u32,
}

impl Function {
    /// The edge index type of CFAs.
    pub fn edge(&self, e: EdgeIndex) -> &Edge {
        &self.cfa[e]
    }

    /// Renames the variables in scope on every edge (a variable a rewrite replaced by others
    /// is in scope where it was).
    pub fn rename_in_scope(&mut self, rename: impl Fn(VarId) -> Vec<VarId>) {
        for e in self.cfa.edge_weights_mut() {
            let mut vars: Vec<VarId> = e.in_scope.iter().flat_map(|x| rename(*x)).collect();
            vars.sort();
            vars.dedup();
            e.in_scope = vars;
        }
    }
}

/// A whole program after lowering.
#[derive(Clone, Debug)]
pub struct Program {
    /// Struct and union definitions.
    pub structs: Vec<StructDef>,
    /// All variables, globals and locals.
    pub vars: Vec<VarInfo>,
    /// Globals with their initialisers, in order (run before `main`).
    pub globals: Vec<VarId>,
    /// Initialisation of globals, as a function with no parameters.
    pub init: FuncId,
    /// All functions (defined or not).
    pub functions: Vec<Function>,
    /// The `main` function.
    pub main: FuncId,
    /// The user's file name, for messages.
    pub file: String,
    /// The sizes of `long` and pointers.
    pub model: DataModel,
    /// Whether `malloc` and `calloc` may fail (return NULL), as the C standard allows; when
    /// false, every allocation succeeds (SV-COMP's rule for the tasks written under it).
    pub alloc_may_fail: bool,
}

impl Program {
    /// Adds a variable; its id.
    pub fn add_var(&mut self, info: VarInfo) -> VarId {
        self.vars.push(info);
        VarId(self.vars.len() as u32 - 1)
    }

    /// The variable with this id.
    pub fn var(&self, v: VarId) -> &VarInfo {
        &self.vars[v.0 as usize]
    }

    /// The function with this id.
    pub fn func(&self, f: FuncId) -> &Function {
        &self.functions[f.0 as usize]
    }

    /// The struct with this id.
    pub fn strukt(&self, s: StructId) -> &StructDef {
        &self.structs[s.0 as usize]
    }

    /// Size in bytes of a type in the program's data model; functions and void count as 1
    /// like GCC.
    pub fn size_of(&self, ty: &Type) -> u64 {
        layout::size_of(&self.structs, self.model, ty)
    }

    /// Calls `f` on every expression and subexpression of every edge, with its function.
    pub fn visit_exprs(&self, f: &mut dyn FnMut(FuncId, &Expr)) {
        for (i, func) in self.functions.iter().enumerate() {
            for edge in func.cfa.edge_weights() {
                for x in edge.op.exprs() {
                    x.visit(&mut |y| f(FuncId(i as u32), y));
                }
            }
        }
    }

    /// The variables whose address the program takes (`&v`).
    pub fn address_taken(&self) -> std::collections::BTreeSet<VarId> {
        let mut out = std::collections::BTreeSet::new();
        self.visit_exprs(&mut |_, y| {
            if let ExprKind::AddrOf(a) = &y.kind
                && let ExprKind::Var(v) = &a.kind
            {
                out.insert(*v);
            }
        });
        out
    }

    /// Finds a function by name.
    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }
}

/// Sizes and alignments in a data model.
pub mod layout {
    use super::{DataModel, StructDef, Type};

    /// Size in bytes (saturating: an array too large for any address space has size
    /// `u64::MAX`).
    pub fn size_of(structs: &[StructDef], model: DataModel, ty: &Type) -> u64 {
        match ty {
            Type::Void | Type::Func => 1,
            Type::Int(i) => i.size(),
            Type::Ptr(_) => model.ptr_bytes(),
            Type::Struct(s) => structs[s.0 as usize].size,
            Type::Array(t, n) => size_of(structs, model, t).saturating_mul(*n),
        }
    }

    /// The bytes a variadic argument of `size` bytes occupies in the argument block: its
    /// size rounded up to a whole number of pointer-sized slots.
    pub fn va_slot(model: DataModel, size: u64) -> u64 {
        let p = model.ptr_bytes();
        size.div_ceil(p).max(1).saturating_mul(p)
    }

    /// Alignment in bytes (i386 System V: 64-bit integers align to 4 inside structs).
    pub fn align_of(structs: &[StructDef], model: DataModel, ty: &Type) -> u64 {
        match ty {
            Type::Void | Type::Func => 1,
            Type::Int(i) => model.int_align(i.size()),
            Type::Ptr(_) => model.ptr_bytes(),
            Type::Struct(s) => structs[s.0 as usize].align.max(1),
            Type::Array(t, _) => align_of(structs, model, t),
        }
    }
}
