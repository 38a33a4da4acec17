//! Expression lowering: lang-c expressions to side-effect-free [`Expr`]s, emitting CFA edges
//! for calls, assignments, increments and short-circuit operators, and branch lowering of
//! conditions.

use super::types::{promote, usual};
use super::{Lowerer, Res, Symbol};
use crate::program::ir::*;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use petgraph::graph::NodeIndex;

/// Library functions with built-in semantics, by name.
pub(super) fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "reach_error" => Builtin::Error(ErrorCall::ReachError),
        "__VERIFIER_error" => Builtin::Error(ErrorCall::VerifierError),
        "__assert_fail" | "__assert_perror_fail" | "__assert" => {
            Builtin::Error(ErrorCall::AssertFail)
        }
        "__VERIFIER_assume" => Builtin::Assume,
        "malloc" | "__builtin_malloc" => Builtin::Alloc(AllocKind::Malloc),
        "calloc" => Builtin::Alloc(AllocKind::Calloc),
        "alloca" | "__builtin_alloca" => Builtin::Alloc(AllocKind::Alloca),
        "free" => Builtin::Free,
        "abort" | "__builtin_abort" => Builtin::Abort,
        "exit" | "_exit" => Builtin::Exit,
        "memset" | "__builtin_memset" => Builtin::Memset,
        "memcpy" | "__builtin_memcpy" | "memmove" => Builtin::Memcpy,
        "__shapecheck_caveat" => Builtin::Caveat,
        "__shapecheck_block_size" => Builtin::BlockSize,
        "__shapecheck_unsupported" => Builtin::Unsupported,
        "__shapecheck_external" => Builtin::External,
        n if n.starts_with("__VERIFIER_nondet_") => Builtin::Nondet,
        _ => return None,
    })
}

/// The return type of `__VERIFIER_nondet_<suffix>` when the program does not declare it.
fn nondet_type(name: &str, model: DataModel) -> Type {
    let suffix = name.trim_start_matches("__VERIFIER_nondet_");
    let int = |bits, signed| Type::Int(IntTy::new(bits, signed));
    match suffix {
        "bool" | "_Bool" => Type::Int(IntTy::BOOL),
        "char" => int(8, true),
        "uchar" => int(8, false),
        "short" => int(16, true),
        "ushort" => int(16, false),
        "uint" | "unsigned" | "u32" => int(32, false),
        "long" => Type::Int(model.long(true)),
        "ulong" => Type::Int(model.long(false)),
        "size_t" => Type::Int(model.size_t()),
        "longlong" => int(64, true),
        "ulonglong" => int(64, false),
        "pointer" => Type::Void.ptr_to(),
        _ => int(32, true),
    }
}

impl Lowerer<'_> {
    /// Lowers an expression used for its value: arrays decay, functions become addresses.
    pub(super) fn rvalue(&mut self, e: &Node<Expression>) -> Res<Expr> {
        let x = self.expr(e)?;
        Ok(decay(x))
    }

    /// Lowers an expression, returning an lvalue when it denotes memory.
    pub(super) fn expr(&mut self, e: &Node<Expression>) -> Res<Expr> {
        let line = self.line(e.span);
        match &e.node {
            Expression::Identifier(id) => self.identifier(id),
            Expression::Constant(c) => self.constant(c),
            Expression::StringLiteral(s) => match super::literal::string_literal(&s.node) {
                Ok(lit) => Ok(Expr {
                    ty: Type::Int(lit.elem).ptr_to(),
                    kind: ExprKind::Str(std::sync::Arc::new(lit)),
                }),
                Err(why) => self.unsup(s.span, why),
            },
            Expression::Member(m) => self.member(m),
            Expression::Call(c) => self.call(c, None, line),
            Expression::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0)?;
                self.size_constant(self.size_of(&t), s.span)
            }
            Expression::SizeOfVal(s) => {
                let t = match &s.node.0.node {
                    // A string literal is an array: its size counts the terminating zero.
                    Expression::Identifier(id)
                        if matches!(self.lookup(&id.node.name), Some(Symbol::Vla { .. })) =>
                    {
                        let Some(Symbol::Vla { size, .. }) = self.lookup(&id.node.name).cloned()
                        else {
                            return self.unsup(s.span, "sizeof");
                        };
                        return Ok(Expr {
                            kind: ExprKind::Var(size),
                            ty: Type::Int(self.model.size_t()),
                        });
                    }
                    Expression::StringLiteral(l) => match super::literal::string_literal(&l.node) {
                        Ok(lit) => {
                            Type::Array(Box::new(Type::Int(lit.elem)), lit.units.len() as u64 + 1)
                        }
                        Err(why) => return self.unsup(l.span, why),
                    },
                    _ => self.type_of_expr(&s.node.0)?,
                };
                self.size_constant(self.size_of(&t), s.span)
            }
            Expression::AlignOf(a) => {
                let t = self.type_name(&a.node.0)?;
                self.size_constant(self.align_of(&t), a.span)
            }
            Expression::UnaryOperator(u) => self.unary(u, line),
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                let v = self.rvalue(&c.node.expression)?;
                self.convert(v, &to, e.span)
            }
            Expression::BinaryOperator(b) => self.binary(b, e.span),
            Expression::Conditional(c) => self.conditional(c, e.span),
            Expression::Comma(list) => {
                let mut last = None;
                for x in list.iter() {
                    last = Some(self.rvalue(x)?);
                }
                last.map_or_else(|| self.unsup(e.span, "empty comma expression"), Ok)
            }
            Expression::Statement(s) => self.statement_expr(s),
            Expression::OffsetOf(o) => self.offset_of(o),
            Expression::GenericSelection(g) => self.generic(g),
            Expression::CompoundLiteral(c) => self.compound_literal(c, line),
            Expression::VaArg(v) => self.va_arg(v, line),
        }
    }

    /// A `size_t` constant (`sizeof`, `_Alignof`, `offsetof`).
    fn size_constant(&self, v: u64, span: Span) -> Res<Expr> {
        let t = self.model.size_t();
        if crate::explicit::term::mask(v, t.bits) != v {
            return self.unsup(span, "a size larger than the address space");
        }
        Ok(Expr::int(v as i64, t))
    }

    /// `_Generic(e, T1: e1, ..., default: d)`: the association whose type is the type of `e`
    /// (after array and function decay), else the default. Types that the IR does not tell
    /// apart (`int` and `long` in ILP32) make a choice between them unsupported.
    fn generic(&mut self, g: &Node<GenericSelection>) -> Res<Expr> {
        let ty = match self.type_of_expr(&g.node.expression)? {
            Type::Array(t, _) => t.ptr_to(),
            Type::Func => Type::Func.ptr_to(),
            t => t,
        };
        let mut default = None;
        let mut matching = vec![];
        for a in &g.node.associations {
            match &a.node {
                GenericAssociation::Type(t) => {
                    if self.type_name(&t.node.type_name)? == ty {
                        matching.push(&t.node.expression);
                    }
                }
                GenericAssociation::Default(e) => default = Some(e),
            }
        }
        match (matching.as_slice(), default) {
            ([e], _) => self.expr(e),
            ([], Some(e)) => self.expr(e),
            ([], None) => self.unsup(g.span, "a _Generic selection with no matching association"),
            _ => self.unsup(
                g.span,
                "a _Generic selection between types of the same size and signedness",
            ),
        }
    }

    /// `(T){ ... }`: an unnamed object of type `T` initialised from the list (an lvalue).
    fn compound_literal(&mut self, c: &Node<CompoundLiteral>, line: u32) -> Res<Expr> {
        let ty = self.type_name(&c.node.type_name)?;
        let ty = match ty {
            Type::Array(t, 0) => Type::Array(t, c.node.initializer_list.len() as u64),
            t => t,
        };
        let obj = self.temp(ty, line);
        // Inside a function the literal lives as long as the enclosing block (C11 6.5.2.5):
        // bound there under a name no identifier has, it dies with the block's locals.
        if let (Some(_), ExprKind::Var(v)) = (&self.fb, &obj.kind) {
            self.bind(&format!("(compound literal {})", v.0), Symbol::Var(*v));
        }
        self.initialize_items(obj.clone(), &c.node.initializer_list, line)?;
        Ok(obj)
    }

    /// The type of an expression, without keeping its side effects (for `sizeof`).
    pub(super) fn type_of_expr(&mut self, e: &Node<Expression>) -> Res<Type> {
        let saved = self.cur();
        let scratch = self.new_node();
        self.set_cur(scratch);
        let r = self.expr(e);
        self.set_cur(saved);
        Ok(r?.ty)
    }

    fn identifier(&mut self, id: &Node<Identifier>) -> Res<Expr> {
        let name = id.node.name.as_str();
        match self.lookup(name) {
            Some(Symbol::Var(v)) => {
                let v = *v;
                Ok(Expr {
                    kind: ExprKind::Var(v),
                    ty: self.vars[v.0 as usize].ty.clone(),
                })
            }
            Some(Symbol::Func(f)) => Ok(Expr {
                kind: ExprKind::FuncAddr(*f),
                ty: Type::Func,
            }),
            Some(Symbol::EnumConst(c)) => Ok(Expr::int(*c, IntTy::INT)),
            Some(Symbol::Typedef(_)) => self.unsup(id.span, format!("type `{name}` used as value")),
            Some(Symbol::Poison(why)) => self.after_error(id.span, format!("`{name}`: {why}")),
            Some(Symbol::Vla { ptr, .. }) => {
                let ptr = *ptr;
                Ok(Expr {
                    kind: ExprKind::Var(ptr),
                    ty: self.vars[ptr.0 as usize].ty.clone(),
                })
            }
            None if matches!(name, "__PRETTY_FUNCTION__" | "__func__" | "__FUNCTION__") => {
                Ok(Expr {
                    kind: ExprKind::Str(std::sync::Arc::new(super::literal::plain(
                        self.current_function_name(),
                    ))),
                    ty: Type::Int(IntTy::CHAR).ptr_to(),
                })
            }
            None if name.starts_with("__builtin") => {
                self.unsup(id.span, format!("undeclared identifier `{name}`"))
            }
            None => self.input_error(id.span, format!("undeclared identifier `{name}`")),
        }
    }

    fn constant(&mut self, c: &Node<Constant>) -> Res<Expr> {
        match &c.node {
            Constant::Integer(i) => int_constant(i, self.model).map_or_else(
                || self.unsup(c.span, format!("integer constant `{}`", i.number)),
                Ok,
            ),
            Constant::Character(s) => match super::literal::char_constant(s) {
                Ok((v, ty)) => Ok(Expr::int(v, ty)),
                Err(why) => self.unsup(c.span, format!("character constant {s}: {why}")),
            },
            Constant::Float(_) => self.unsup(c.span, "floating-point constants"),
        }
    }

    fn member(&mut self, m: &Node<MemberExpression>) -> Res<Expr> {
        let base = match m.node.operator.node {
            MemberOperator::Direct => self.expr(&m.node.expression)?,
            MemberOperator::Indirect => {
                let p = self.rvalue(&m.node.expression)?;
                let Some(t) = p.ty.pointee().cloned() else {
                    return self.unsup(m.span, "`->` on a non-pointer");
                };
                Expr {
                    kind: ExprKind::Deref(Box::new(p)),
                    ty: t,
                }
            }
        };
        let Type::Struct(s) = base.ty else {
            return self.unsup(m.span, "member access on a non-struct");
        };
        let name = &m.node.identifier.node.name;
        let Some(f) = self.find_field(s, name) else {
            let msg = format!("no field `{name}` in `{}`", self.structs[s.0 as usize].name);
            return match self.lacks_member(s, name) {
                true => self.input_error(m.span, msg),
                false => self.unsup(m.span, msg),
            };
        };
        if !base.is_lvalue() {
            return self.unsup(m.span, "member of a non-lvalue struct");
        }
        Ok(field_expr(base, &f))
    }

    /// Lowers a call; the result goes to `dest` when given, else to a fresh temporary.
    pub(super) fn call(
        &mut self,
        c: &Node<CallExpression>,
        dest: Option<Expr>,
        line: u32,
    ) -> Res<Expr> {
        if let Expression::Identifier(id) = &c.node.callee.node {
            let name = id.node.name.clone();
            let declared = self.lookup(&name).cloned();
            if name.starts_with("__builtin_va_") && declared.is_none() {
                return self.va_builtin(&name, c, line);
            }
            if let Some(b) = builtin(&name) {
                return self.builtin_call(b, &name, c, dest, line);
            }
            match declared {
                Some(Symbol::Func(f)) => return self.direct_call(f, c, dest, line),
                None if name == "__builtin_expect" && c.node.arguments.len() == 2 => {
                    return self.rvalue(&c.node.arguments[0]);
                }
                None => {
                    // C89's implicit declaration `int name()` (GCC accepts it with a warning).
                    let sig = super::Sig {
                        ret: Some(Type::Int(IntTy::INT)),
                        variadic: true,
                        ..super::Sig::default()
                    };
                    let f = self.declare_function(&name, sig, line);
                    return self.direct_call(f, c, dest, line);
                }
                _ => {}
            }
        }
        let target = self.rvalue(&c.node.callee)?;
        let mut args = vec![];
        for a in &c.node.arguments {
            let v = self.rvalue(a)?;
            args.push(self.promote_arg(v));
        }
        let ret = match dest {
            Some(d) => Some(d),
            None => Some(self.temp(Type::Int(IntTy::INT), line)),
        };
        self.emit_call(
            Op::CallPtr {
                lhs: ret.clone(),
                target,
                args,
            },
            line,
            c.span,
        );
        Ok(ret.unwrap_or(Expr::int(0, IntTy::INT)))
    }

    fn direct_call(
        &mut self,
        f: FuncId,
        c: &Node<CallExpression>,
        dest: Option<Expr>,
        line: u32,
    ) -> Res<Expr> {
        let sig = self.sigs[f.0 as usize].clone();
        if let Some(why) = &sig.unsupported {
            return self.unsup(c.span, format!("call to a function with {why}"));
        }
        let name = self.functions[f.0 as usize].name.clone();
        if !sig.variadic && sig.params.len() != c.node.arguments.len() {
            return self.unsup(
                c.span,
                format!("call to `{name}` with the wrong number of arguments"),
            );
        }
        let mut args = vec![];
        for (i, a) in c.node.arguments.iter().enumerate() {
            let v = self.rvalue(a)?;
            args.push(match sig.params.get(i) {
                Some(t) => self.convert(v, t, a.span)?,
                None => self.promote_arg(v),
            });
        }
        let ret = sig.ret.unwrap_or(Type::Int(IntTy::INT));
        let lhs = self.result_slot(&ret, dest, line);
        self.emit_call(
            Op::Call {
                lhs: lhs.clone(),
                callee: Callee::Func(f),
                args,
            },
            line,
            c.span,
        );
        Ok(lhs.unwrap_or(Expr::int(0, IntTy::INT)))
    }

    /// `va_start(ap, last)`, `va_end(ap)` and `va_copy(dst, src)`: `va_start` points `ap` at
    /// the block of variadic arguments the caller filled (the hidden `__va_area` local).
    fn va_builtin(&mut self, name: &str, c: &Node<CallExpression>, line: u32) -> Res<Expr> {
        let args = &c.node.arguments;
        let void = Expr {
            kind: ExprKind::Const(0),
            ty: Type::Void,
        };
        match (name, args.len()) {
            ("__builtin_va_start", 1 | 2) => {
                let ap = self.expr(&args[0])?;
                let f = self.fb.as_ref().map(|b| b.id);
                let area = f.and_then(|f| self.functions[f.0 as usize].va_area);
                let Some(area) = area else {
                    return self.unsup(c.span, "`va_start` outside a variadic function");
                };
                let v = Expr {
                    ty: self.vars[area.0 as usize].ty.clone(),
                    kind: ExprKind::Var(area),
                };
                self.store(&ap, v, c.span, line)?;
                Ok(void)
            }
            ("__builtin_va_end", 1) => {
                self.rvalue(&args[0])?;
                Ok(void)
            }
            ("__builtin_va_copy", 2) => {
                let dst = self.expr(&args[0])?;
                let src = self.rvalue(&args[1])?;
                self.store(&dst, src, c.span, line)?;
                Ok(void)
            }
            _ => self.unsup(c.span, format!("`{name}`")),
        }
    }

    /// `va_arg(ap, T)`: the next slot of the argument block read as a `T`; `ap` moves past
    /// it.
    fn va_arg(&mut self, v: &Node<VaArgExpression>, line: u32) -> Res<Expr> {
        let ap = self.expr(&v.node.va_list)?;
        let ty = self.type_name(&v.node.type_name)?;
        if !ap.is_lvalue() || !matches!(ap.ty, Type::Ptr(_)) {
            return self.unsup(v.span, "`va_arg` on something that is not a `va_list`");
        }
        if !ty.is_scalar() {
            return self.unsup(v.span, "`va_arg` of an aggregate type");
        }
        let at = Expr {
            ty: ty.clone().ptr_to(),
            kind: ExprKind::Cast(Box::new(ap.clone())),
        };
        let value = Expr {
            ty: ty.clone(),
            kind: ExprKind::Deref(Box::new(at)),
        };
        let t = self.temp(ty.clone(), line);
        self.emit(
            Op::Assign {
                lhs: t.clone(),
                rhs: value,
            },
            line,
        );
        let slot = layout::va_slot(self.model, self.size_of(&ty));
        let next = ptr_add(ap.clone(), Expr::int(slot as i64, IntTy::INT), 1);
        self.emit(Op::Assign { lhs: ap, rhs: next }, line);
        Ok(t)
    }

    /// Where a call's result is stored: the caller's destination or a temporary.
    fn result_slot(&mut self, ret: &Type, dest: Option<Expr>, line: u32) -> Option<Expr> {
        match (ret, dest) {
            (Type::Void, _) => None,
            (_, Some(d)) => Some(d),
            (t, None) => Some(self.temp(t.clone(), line)),
        }
    }

    fn promote_arg(&self, v: Expr) -> Expr {
        match v.ty.as_int() {
            Some(t) if promote(t) != t => cast(v, Type::Int(promote(t))),
            _ => v,
        }
    }

    fn builtin_call(
        &mut self,
        b: Builtin,
        name: &str,
        c: &Node<CallExpression>,
        dest: Option<Expr>,
        line: u32,
    ) -> Res<Expr> {
        let mut args = vec![];
        for a in &c.node.arguments {
            args.push(self.rvalue(a)?);
        }
        let ret = match b {
            Builtin::Nondet => match self.lookup(name) {
                Some(Symbol::Func(f)) => self.sigs[f.0 as usize].ret.clone().unwrap_or(Type::Void),
                _ => nondet_type(name, self.model),
            },
            Builtin::Alloc(_) | Builtin::Memset | Builtin::Memcpy => Type::Void.ptr_to(),
            Builtin::BlockSize => Type::Int(self.model.size_t()),
            Builtin::External => Type::Void.ptr_to(),
            _ => Type::Void,
        };
        let args = self.builtin_args(b, args, c.span)?;
        let lhs = self.result_slot(&ret, dest, line);
        self.emit_call(
            Op::Call {
                lhs: lhs.clone(),
                callee: Callee::Builtin(b),
                args,
            },
            line,
            c.span,
        );
        Ok(lhs.unwrap_or(Expr {
            kind: ExprKind::Const(0),
            ty: Type::Void,
        }))
    }

    /// Checks and converts the arguments of a builtin.
    fn builtin_args(&mut self, b: Builtin, args: Vec<Expr>, span: Span) -> Res<Vec<Expr>> {
        let want: &[&str] = match b {
            Builtin::Assume | Builtin::Exit => &["int"],
            Builtin::Alloc(AllocKind::Calloc) => &["size", "size"],
            Builtin::Alloc(_) => &["size"],
            Builtin::Free => &["ptr"],
            Builtin::Memset => &["ptr", "int", "size"],
            Builtin::Memcpy => &["ptr", "ptr", "size"],
            Builtin::BlockSize => &["ptr"],
            Builtin::Caveat | Builtin::Unsupported | Builtin::External => &["literal"],
            _ => return Ok(vec![]),
        };
        if args.len() != want.len() {
            return self.unsup(span, "builtin called with the wrong number of arguments");
        }
        let mut out = vec![];
        for (a, w) in args.into_iter().zip(want) {
            out.push(match *w {
                "size" => self.convert(a, &Type::Int(self.model.size_t()), span)?,
                "ptr" => self.convert(a, &Type::Void.ptr_to(), span)?,
                "literal" if a.literal_text().is_some() => a,
                "literal" => return self.unsup(span, "a builtin that needs a string literal"),
                _ => self.scalar(a, span)?,
            });
        }
        Ok(out)
    }

    fn unary(&mut self, u: &Node<UnaryOperatorExpression>, line: u32) -> Res<Expr> {
        let span = u.span;
        match u.node.operator.node {
            UnaryOperator::PostIncrement => self.increment(&u.node.operand, 1, true, line),
            UnaryOperator::PostDecrement => self.increment(&u.node.operand, -1, true, line),
            UnaryOperator::PreIncrement => self.increment(&u.node.operand, 1, false, line),
            UnaryOperator::PreDecrement => self.increment(&u.node.operand, -1, false, line),
            UnaryOperator::Address => {
                let x = self.expr(&u.node.operand)?;
                match x.kind {
                    ExprKind::FuncAddr(_) => Ok(Expr {
                        ty: Type::Func.ptr_to(),
                        ..x
                    }),
                    ExprKind::BitField(..) => self.unsup(span, "address of a bit-field"),
                    _ if x.is_lvalue() => Ok(Expr {
                        ty: x.ty.clone().ptr_to(),
                        kind: ExprKind::AddrOf(Box::new(x)),
                    }),
                    _ => self.unsup(span, "address of a non-lvalue"),
                }
            }
            UnaryOperator::Indirection => {
                let p = self.rvalue(&u.node.operand)?;
                match p.ty.pointee().cloned() {
                    Some(Type::Func) => Ok(p),
                    Some(Type::Void) => self.unsup(span, "dereference of `void *`"),
                    Some(t) => Ok(Expr {
                        kind: ExprKind::Deref(Box::new(p)),
                        ty: t,
                    }),
                    None => self.unsup(span, "dereference of a non-pointer"),
                }
            }
            UnaryOperator::Plus => {
                let v = self.rvalue(&u.node.operand)?;
                self.arith_operand(v, span)
            }
            UnaryOperator::Minus | UnaryOperator::Complement => {
                let v = self.rvalue(&u.node.operand)?;
                let v = self.arith_operand(v, span)?;
                let op = if u.node.operator.node == UnaryOperator::Minus {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                Ok(Expr {
                    ty: v.ty.clone(),
                    kind: ExprKind::Unary(op, Box::new(v)),
                })
            }
            UnaryOperator::Negate => {
                let v = self.rvalue(&u.node.operand)?;
                let v = self.scalar(v, span)?;
                Ok(compare(CmpOp::Eq, v.clone(), zero_like(&v)))
            }
        }
    }

    /// An integer operand after promotion.
    fn arith_operand(&self, v: Expr, span: Span) -> Res<Expr> {
        match v.ty.as_int() {
            Some(t) => Ok(cast(v, Type::Int(promote(t)))),
            None => self.unsup(span, "arithmetic on a non-integer"),
        }
    }

    /// A scalar (integer or pointer) value, for conditions.
    pub(super) fn scalar(&self, v: Expr, span: Span) -> Res<Expr> {
        if v.ty.is_scalar() {
            Ok(v)
        } else {
            self.unsup(span, "a non-scalar used as a condition")
        }
    }

    pub(super) fn increment(
        &mut self,
        e: &Node<Expression>,
        delta: i64,
        post: bool,
        line: u32,
    ) -> Res<Expr> {
        let lv = self.expr(e)?;
        if !lv.is_lvalue() || !lv.ty.is_scalar() {
            return self.unsup(e.span, "increment of a non-scalar lvalue");
        }
        let old = if post {
            let t = self.temp(lv.ty.clone(), line);
            self.emit(
                Op::Assign {
                    lhs: t.clone(),
                    rhs: lv.clone(),
                },
                line,
            );
            Some(t)
        } else {
            None
        };
        let one = Expr::int(delta, IntTy::INT);
        let new = self.add(lv.clone(), one, e.span)?;
        self.store(&lv, new, e.span, line)?;
        Ok(old.unwrap_or(lv))
    }

    /// `a + b` with pointer arithmetic.
    fn add(&self, a: Expr, b: Expr, span: Span) -> Res<Expr> {
        match (&a.ty, &b.ty) {
            (Type::Ptr(t), Type::Int(_)) => Ok(ptr_add(a.clone(), b, self.size_of(t))),
            (Type::Int(_), Type::Ptr(t)) => Ok(ptr_add(b.clone(), a, self.size_of(t))),
            _ => self.arith(BinOp::Add, a, b, span),
        }
    }

    fn sub(&self, a: Expr, b: Expr, span: Span) -> Res<Expr> {
        match (&a.ty, &b.ty) {
            (Type::Ptr(t), Type::Int(_)) => {
                // `p - n` moves back by n elements: the negation is signed and 64 bits wide,
                // so that an unsigned `n` (container_of's `offsetof`) does not wrap into a
                // huge forward offset.
                let wide = Type::Int(IntTy::LLONG);
                let nb = Expr {
                    ty: wide.clone(),
                    kind: ExprKind::Unary(UnOp::Neg, Box::new(cast(b, wide))),
                };
                Ok(ptr_add(a.clone(), nb, self.size_of(t)))
            }
            (Type::Ptr(t), Type::Ptr(_)) => Ok(Expr {
                ty: Type::Int(self.model.ptrdiff_t()),
                kind: ExprKind::PtrDiff(Box::new(a.clone()), Box::new(b), self.size_of(t)),
            }),
            _ => self.arith(BinOp::Sub, a, b, span),
        }
    }

    fn arith(&self, op: BinOp, a: Expr, b: Expr, span: Span) -> Res<Expr> {
        let (Some(ta), Some(tb)) = (a.ty.as_int(), b.ty.as_int()) else {
            return self.unsup(span, "arithmetic on non-integers");
        };
        let t = if matches!(op, BinOp::Shl | BinOp::Shr) {
            promote(ta)
        } else {
            usual(ta, tb)
        };
        let ty = Type::Int(t);
        let (a, b) = (cast(a, ty.clone()), cast(b, ty.clone()));
        Ok(Expr {
            ty,
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        })
    }

    fn relation(&self, op: CmpOp, a: Expr, b: Expr, span: Span) -> Res<Expr> {
        match (&a.ty, &b.ty) {
            (Type::Int(ta), Type::Int(tb)) => {
                let t = Type::Int(usual(*ta, *tb));
                Ok(compare(op, cast(a, t.clone()), cast(b, t)))
            }
            (Type::Ptr(_), Type::Ptr(_)) => Ok(compare(op, a, b)),
            (Type::Ptr(_), Type::Int(_)) => Ok(compare(op, a.clone(), cast(b, a.ty))),
            (Type::Int(_), Type::Ptr(_)) => Ok(compare(op, cast(a, b.ty.clone()), b)),
            _ => self.unsup(span, "comparison of non-scalars"),
        }
    }

    fn binary(&mut self, b: &Node<BinaryOperatorExpression>, span: Span) -> Res<Expr> {
        use BinaryOperator as B;
        let line = self.line(span);
        let op = &b.node.operator.node;
        match op {
            B::Assign => return self.assign(&b.node.lhs, &b.node.rhs, line),
            B::LogicalAnd | B::LogicalOr => return self.logical_value(b, line),
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                return self.compound_assign(b, line);
            }
            _ => {}
        }
        let lhs = self.rvalue(&b.node.lhs)?;
        let rhs = self.rvalue(&b.node.rhs)?;
        self.binary_values(op, lhs, rhs, span)
    }

    fn binary_values(&self, op: &BinaryOperator, l: Expr, r: Expr, span: Span) -> Res<Expr> {
        use BinaryOperator as B;
        match op {
            B::Index => {
                let p = self.add(l, r, span)?;
                match p.ty.pointee().cloned() {
                    Some(t) => Ok(Expr {
                        kind: ExprKind::Deref(Box::new(p)),
                        ty: t,
                    }),
                    None => self.unsup(span, "subscript of a non-pointer"),
                }
            }
            B::Plus | B::AssignPlus => self.add(l, r, span),
            B::Minus | B::AssignMinus => self.sub(l, r, span),
            B::Multiply | B::AssignMultiply => self.arith(BinOp::Mul, l, r, span),
            B::Divide | B::AssignDivide => self.arith(BinOp::Div, l, r, span),
            B::Modulo | B::AssignModulo => self.arith(BinOp::Rem, l, r, span),
            B::ShiftLeft | B::AssignShiftLeft => self.arith(BinOp::Shl, l, r, span),
            B::ShiftRight | B::AssignShiftRight => self.arith(BinOp::Shr, l, r, span),
            B::BitwiseAnd | B::AssignBitwiseAnd => self.arith(BinOp::And, l, r, span),
            B::BitwiseOr | B::AssignBitwiseOr => self.arith(BinOp::Or, l, r, span),
            B::BitwiseXor | B::AssignBitwiseXor => self.arith(BinOp::Xor, l, r, span),
            B::Less => self.relation(CmpOp::Lt, l, r, span),
            B::Greater => self.relation(CmpOp::Gt, l, r, span),
            B::LessOrEqual => self.relation(CmpOp::Le, l, r, span),
            B::GreaterOrEqual => self.relation(CmpOp::Ge, l, r, span),
            B::Equals => self.relation(CmpOp::Eq, l, r, span),
            B::NotEquals => self.relation(CmpOp::Ne, l, r, span),
            _ => self.unsup(span, "this binary operator"),
        }
    }

    /// `lhs = rhs`; a call on the right stores its result straight into `lhs`.
    pub(super) fn assign(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        line: u32,
    ) -> Res<Expr> {
        let lv = self.expr(lhs)?;
        if !lv.is_lvalue() {
            return self.unsup(lhs.span, "assignment to a non-lvalue");
        }
        self.assign_to(lv, rhs, line)
    }

    /// `lv = rhs` where `lv` is already lowered.
    pub(super) fn assign_to(&mut self, lv: Expr, rhs: &Node<Expression>, line: u32) -> Res<Expr> {
        if let Some(call) = direct_call_target(rhs, &lv.ty)
            && !matches!(lv.kind, ExprKind::BitField(..))
        {
            self.call(call, Some(lv.clone()), line)?;
            return Ok(lv);
        }
        let v = self.rvalue(rhs)?;
        self.store(&lv, v, rhs.span, line)?;
        Ok(lv)
    }

    /// Emits `lv = v` after converting `v` to the type of `lv`.
    fn store(&mut self, lv: &Expr, v: Expr, span: Span, line: u32) -> Res<()> {
        let v = self.convert(v, &lv.ty, span)?;
        self.emit(
            Op::Assign {
                lhs: lv.clone(),
                rhs: v,
            },
            line,
        );
        Ok(())
    }

    fn compound_assign(&mut self, b: &Node<BinaryOperatorExpression>, line: u32) -> Res<Expr> {
        let lv = self.expr(&b.node.lhs)?;
        if !lv.is_lvalue() {
            return self.unsup(b.span, "assignment to a non-lvalue");
        }
        let r = self.rvalue(&b.node.rhs)?;
        let v = self.binary_values(&b.node.operator.node, lv.clone(), r, b.span)?;
        self.store(&lv, v, b.span, line)?;
        Ok(lv)
    }

    /// `a && b` or `a || b` used as a value: an `int` temporary set on each branch.
    fn logical_value(&mut self, b: &Node<BinaryOperatorExpression>, line: u32) -> Res<Expr> {
        let t = self.temp(Type::Int(IntTy::INT), line);
        let (yes, no, join) = (self.new_node(), self.new_node(), self.new_node());
        let whole = Node {
            node: Expression::BinaryOperator(Box::new(b.clone())),
            span: b.span,
        };
        self.cond(&whole, yes, no)?;
        for (n, v) in [(yes, 1), (no, 0)] {
            self.set_cur(n);
            self.emit(
                Op::Assign {
                    lhs: t.clone(),
                    rhs: Expr::int(v, IntTy::INT),
                },
                line,
            );
            self.jump(join, line);
        }
        self.set_cur(join);
        Ok(t)
    }

    fn conditional(&mut self, c: &Node<ConditionalExpression>, span: Span) -> Res<Expr> {
        let line = self.line(span);
        let (yes, no, join) = (self.new_node(), self.new_node(), self.new_node());
        self.cond(&c.node.condition, yes, no)?;
        self.set_cur(yes);
        let a = self.rvalue(&c.node.then_expression)?;
        let a_end = self.cur();
        self.set_cur(no);
        let b = self.rvalue(&c.node.else_expression)?;
        let ty = match (&a.ty, &b.ty) {
            (Type::Int(x), Type::Int(y)) => Type::Int(usual(*x, *y)),
            (Type::Ptr(_), _) => a.ty.clone(),
            (_, Type::Ptr(_)) => b.ty.clone(),
            (Type::Void, _) | (_, Type::Void) => Type::Void,
            _ => a.ty.clone(),
        };
        if ty == Type::Void {
            self.jump(join, line);
            self.set_cur(a_end);
            self.jump(join, line);
            self.set_cur(join);
            return Ok(Expr {
                kind: ExprKind::Const(0),
                ty,
            });
        }
        let t = self.temp(ty.clone(), line);
        let b = self.convert(b, &ty, span)?;
        self.emit(
            Op::Assign {
                lhs: t.clone(),
                rhs: b,
            },
            line,
        );
        self.jump(join, line);
        self.set_cur(a_end);
        let a = self.convert(a, &ty, span)?;
        self.emit(
            Op::Assign {
                lhs: t.clone(),
                rhs: a,
            },
            line,
        );
        self.jump(join, line);
        self.set_cur(join);
        Ok(t)
    }

    fn statement_expr(&mut self, s: &Node<Statement>) -> Res<Expr> {
        let Statement::Compound(items) = &s.node else {
            return self.unsup(s.span, "statement expression without a block");
        };
        self.push_scope();
        let mut value = Expr {
            kind: ExprKind::Const(0),
            ty: Type::Void,
        };
        for (i, item) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            match &item.node {
                BlockItem::Statement(st) if last => {
                    if let Statement::Expression(Some(e)) = &st.node {
                        value = self.rvalue(e)?;
                    } else {
                        self.statement(st);
                    }
                }
                _ => self.block_item(item),
            }
        }
        self.pop_scope(self.src.line_of(s.span.end));
        Ok(value)
    }

    fn offset_of(&mut self, o: &Node<OffsetOfExpression>) -> Res<Expr> {
        let mut ty = self.type_name(&o.node.type_name)?;
        let mut off = 0u64;
        let mut names = vec![&o.node.designator.node.base];
        for m in &o.node.designator.node.members {
            match &m.node {
                OffsetMember::Member(id) => names.push(id),
                _ => return self.unsup(m.span, "offsetof with array or indirect members"),
            }
        }
        for id in names {
            let Type::Struct(s) = ty else {
                return self.unsup(id.span, "offsetof on a non-struct");
            };
            let Some(f) = self.find_field(s, &id.node.name) else {
                return self.unsup(id.span, format!("no field `{}`", id.node.name));
            };
            if f.bits.is_some() {
                return self.unsup(id.span, "offsetof a bit-field");
            }
            off += f.offset;
            ty = f.ty;
        }
        self.size_constant(off, o.span)
    }

    /// Converts a value to type `to` as assignment and casts do.
    pub(super) fn convert(&self, v: Expr, to: &Type, span: Span) -> Res<Expr> {
        if &v.ty == to {
            return Ok(v);
        }
        match (&v.ty, to) {
            (_, Type::Void) => Ok(Expr {
                ty: Type::Void,
                ..v
            }),
            (Type::Int(_), Type::Int(t)) if *t == IntTy::BOOL => {
                let nz = compare(CmpOp::Ne, v.clone(), zero_like(&v));
                Ok(cast(nz, to.clone()))
            }
            (Type::Ptr(_), Type::Int(t)) if *t == IntTy::BOOL => {
                let nz = compare(CmpOp::Ne, v.clone(), zero_like(&v));
                Ok(cast(nz, to.clone()))
            }
            (Type::Int(_), Type::Int(_)) => Ok(cast(v, to.clone())),
            (Type::Ptr(_), Type::Ptr(_)) | (Type::Int(_), Type::Ptr(_)) => Ok(cast(v, to.clone())),
            (Type::Ptr(_), Type::Int(_)) => Ok(cast(v, to.clone())),
            (Type::Struct(a), Type::Struct(b)) if a == b => Ok(v),
            (Type::Func, Type::Ptr(_)) => Ok(Expr {
                ty: to.clone(),
                ..v
            }),
            _ => self.unsup(span, format!("conversion from {:?} to {:?}", v.ty, to)),
        }
    }

    /// Branch lowering: continue at `yes` when `e` holds, at `no` otherwise.
    pub(super) fn cond(&mut self, e: &Node<Expression>, yes: NodeIndex, no: NodeIndex) -> Res<()> {
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
                let mid = self.new_node();
                self.cond(&b.node.lhs, mid, no)?;
                self.set_cur(mid);
                self.cond(&b.node.rhs, yes, no)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
                let mid = self.new_node();
                self.cond(&b.node.lhs, yes, mid)?;
                self.set_cur(mid);
                self.cond(&b.node.rhs, yes, no)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, no, yes)
            }
            _ => {
                let line = self.line(e.span);
                let v = self.rvalue(e)?;
                let v = self.scalar(v, e.span)?;
                let from = self.cur();
                match const_truth(&v) {
                    Some(true) => self.add_edge(from, yes, Op::Skip, line),
                    Some(false) => self.add_edge(from, no, Op::Skip, line),
                    None => {
                        self.add_edge(
                            from,
                            yes,
                            Op::Assume {
                                cond: v.clone(),
                                positive: true,
                            },
                            line,
                        );
                        self.add_edge(
                            from,
                            no,
                            Op::Assume {
                                cond: v,
                                positive: false,
                            },
                            line,
                        );
                    }
                }
                let dead = self.new_node();
                self.set_cur(dead);
                Ok(())
            }
        }
    }

    /// Evaluates an integer constant expression (array sizes, enumerators, case labels).
    pub(super) fn const_eval(&mut self, e: &Node<Expression>) -> Option<i64> {
        let saved = self.cur();
        let scratch = self.new_node();
        self.set_cur(scratch);
        let r = self.rvalue(e);
        let emitted = self.cur() != scratch;
        self.set_cur(saved);
        if emitted {
            return None;
        }
        fold(&r.ok()?)
    }
}

/// The lvalue of field `f` of the struct lvalue `base`: a `Field`, or for a bit-field a
/// `BitField` over the `Field` of its unit.
pub(super) fn field_expr(base: Expr, f: &Field) -> Expr {
    let kind = ExprKind::Field(Box::new(base), f.offset, f.name.clone());
    match f.bits {
        None => Expr {
            kind,
            ty: f.ty.clone(),
        },
        Some(spec) => Expr {
            kind: ExprKind::BitField(
                Box::new(Expr {
                    kind,
                    ty: Type::Int(spec.unit),
                }),
                spec,
            ),
            ty: f.ty.clone(),
        },
    }
}

/// A call on the right of an assignment whose result can be stored straight into the target.
fn direct_call_target<'a>(
    rhs: &'a Node<Expression>,
    target: &Type,
) -> Option<&'a Node<CallExpression>> {
    match &rhs.node {
        Expression::Call(c) if target.is_scalar() => Some(c),
        Expression::Cast(c) if matches!(target, Type::Ptr(_)) => match &c.node.expression.node {
            Expression::Call(call) => Some(call),
            _ => None,
        },
        _ => None,
    }
}

/// Array-to-pointer and function-to-pointer decay.
pub(super) fn decay(x: Expr) -> Expr {
    match (&x.ty, &x.kind) {
        (Type::Array(t, _), _) if x.is_lvalue() => {
            let ty = (**t).clone().ptr_to();
            Expr {
                kind: ExprKind::AddrOf(Box::new(x)),
                ty,
            }
        }
        (Type::Func, ExprKind::FuncAddr(_)) => Expr {
            ty: Type::Func.ptr_to(),
            ..x
        },
        _ => x,
    }
}

fn cast(v: Expr, to: Type) -> Expr {
    if v.ty == to {
        return v;
    }
    // Constants fold up to 64 bits; a 128-bit conversion of an unsigned 64-bit value stays a
    // cast, since `Const` holds an `i64` that widens with its sign.
    if let (ExprKind::Const(c), Type::Int(t)) = (&v.kind, &to)
        && t.bits <= 64
    {
        let bits = crate::explicit::term::mask(*c as u64, t.bits);
        let val = if t.signed {
            crate::explicit::term::sign_extend(bits, t.bits)
        } else {
            bits as i64
        };
        return Expr {
            kind: ExprKind::Const(val),
            ty: to,
        };
    }
    if let (ExprKind::Const(c), Type::Ptr(_)) = (&v.kind, &to) {
        return Expr {
            kind: ExprKind::Const(*c),
            ty: to,
        };
    }
    Expr {
        kind: ExprKind::Cast(Box::new(v)),
        ty: to,
    }
}

fn compare(op: CmpOp, a: Expr, b: Expr) -> Expr {
    Expr {
        kind: ExprKind::Cmp(op, Box::new(a), Box::new(b)),
        ty: Type::Int(IntTy::INT),
    }
}

fn zero_like(v: &Expr) -> Expr {
    Expr {
        kind: ExprKind::Const(0),
        ty: v.ty.clone(),
    }
}

fn ptr_add(p: Expr, i: Expr, size: u64) -> Expr {
    let ty = p.ty.clone();
    Expr {
        kind: ExprKind::PtrAdd(Box::new(p), Box::new(i), size),
        ty,
    }
}

fn const_truth(v: &Expr) -> Option<bool> {
    fold(v).map(|c| c != 0)
}

/// Folds an expression made only of constants.
fn fold(v: &Expr) -> Option<i64> {
    to_term(v)?.as_const()
}

fn to_term(v: &Expr) -> Option<crate::explicit::term::TermRef> {
    use crate::explicit::term;
    let ity =
        v.ty.as_int()
            .or(matches!(v.ty, Type::Ptr(_)).then_some(IntTy::UINT))?;
    Some(match &v.kind {
        ExprKind::Const(c) => term::Term::constant(*c, ity),
        ExprKind::Unary(op, a) => term::unary(*op, to_term(a)?),
        ExprKind::Binary(op, a, b) => term::binary(*op, to_term(a)?, to_term(b)?)?,
        ExprKind::Cmp(op, a, b) => term::compare(*op, to_term(a)?, to_term(b)?),
        ExprKind::Cast(a) => term::cast(to_term(a)?, ity),
        _ => return None,
    })
}

/// Value of an integer literal with its C type: the first of the candidate types (C11
/// 6.4.4.1) that holds the value; `long` has the data model's width.
fn int_constant(i: &Integer, model: DataModel) -> Option<Expr> {
    let radix = match i.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = i.number.trim_start_matches("0x").trim_start_matches("0X");
    let digits = if radix == 2 {
        digits.trim_start_matches("0b").trim_start_matches("0B")
    } else {
        digits
    };
    let v = u64::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix).ok()?;
    let decimal = radix == 10;
    let long = model.long(true).bits;
    let rank = match i.suffix.size {
        IntegerSize::Int => 32,
        IntegerSize::Long => long,
        IntegerSize::LongLong => 64,
    };
    let mut candidates = vec![];
    for bits in [32, long, 64] {
        if bits < rank {
            continue;
        }
        if !i.suffix.unsigned {
            candidates.push(IntTy::new(bits, true));
        }
        if i.suffix.unsigned || !decimal {
            candidates.push(IntTy::new(bits, false));
        }
    }
    // GCC gives a decimal constant too large for `long long` the type `unsigned long long`.
    candidates.push(IntTy::new(64, false));
    let ty = candidates.into_iter().find(|t| fits(v, *t))?;
    Some(Expr::int(v as i64, ty))
}

/// Whether `v` is a value of `t`.
fn fits(v: u64, t: IntTy) -> bool {
    let max = if t.signed {
        (1u64 << (t.bits - 1)) - 1
    } else {
        crate::explicit::term::mask(u64::MAX, t.bits)
    };
    v <= max
}
