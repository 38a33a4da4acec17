//! Declaration lowering: the translation unit, globals with their initialisers (into the
//! synthetic `__shapecheck_init` function that then calls `main`), function definitions, and
//! local declarations.

use super::types::{Declared, Specs};
use super::{FnBuilder, Lowerer, Res, Sig, Symbol, mark_loop_heads};
use crate::program::ir::*;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashMap;

impl Lowerer<'_> {
    /// Lowers every external declaration in order.
    pub(super) fn translation_unit(&mut self, unit: &TranslationUnit) {
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => self.global_declaration(d),
                ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f),
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
    }

    /// Registers a function name (or refines an earlier declaration) and returns its id.
    pub(super) fn declare_function(&mut self, name: &str, sig: Sig, line: u32) -> FuncId {
        if let Some(Symbol::Func(f)) = self.scopes[0].get(name) {
            let f = *f;
            let old = &mut self.sigs[f.0 as usize];
            if old.params.is_empty() && old.variadic || old.ret.is_none() {
                *old = sig;
            }
            return f;
        }
        let id = FuncId(self.functions.len() as u32);
        let mut cfa = DiGraph::new();
        let entry = cfa.add_node(Loc::default());
        self.functions.push(Function {
            name: name.to_string(),
            params: vec![],
            locals: vec![],
            ret: sig.ret.clone().unwrap_or(Type::Int(IntTy::INT)),
            cfa,
            entry,
            exit: entry,
            defined: false,
            va_area: None,
            library: false,
            line,
        });
        self.sigs.push(sig);
        self.scopes[0].insert(name.to_string(), Symbol::Func(id));
        id
    }

    pub(super) fn global_declaration(&mut self, d: &Node<Declaration>) {
        let specs = Specs::of_decl(&d.node.specifiers);
        let base = match self.base_type(&specs, d.span) {
            Ok(b) => b,
            Err(e) => return self.poison_declarators(d, &e),
        };
        for id in &d.node.declarators {
            let r = match self.declarator(base.clone(), &id.node.declarator) {
                Ok(r) => r,
                Err(e) => {
                    self.poison_one(&id.node.declarator, &e);
                    continue;
                }
            };
            let line = self.line(id.span);
            self.declare_global(r, &specs, id.node.initializer.as_ref(), line);
        }
    }

    /// Binds a global declarator: a typedef, a function, or a variable with its initialiser.
    fn declare_global(
        &mut self,
        r: Declared,
        specs: &Specs,
        init: Option<&Node<Initializer>>,
        line: u32,
    ) {
        let Some((name, _)) = r.name else { return };
        if specs.typedef {
            self.bind(&name, Symbol::Typedef(r.ty));
            return;
        }
        if r.ty == Type::Func {
            self.declare_function(&name, r.sig.unwrap_or_default(), line);
            return;
        }
        let v = match self.lookup(&name) {
            Some(Symbol::Var(v)) if self.vars[v.0 as usize].kind == VarKind::Global => *v,
            _ => {
                let v = self.new_var(&name, r.ty.clone(), VarKind::Global, line);
                self.globals.push(v);
                self.bind(&name, Symbol::Var(v));
                v
            }
        };
        if init.is_some() || !specs.is_extern {
            self.extern_only.remove(&v);
        } else if !self.defined.contains(&v) {
            self.extern_only.insert(v);
        }
        if init.is_some() || !specs.is_extern {
            self.defined.insert(v);
        }
        if let Some(init) = init {
            if let Type::Array(_, 0) = self.vars[v.0 as usize].ty {
                self.vars[v.0 as usize].ty = self.complete_array(r.ty, Some(init));
            }
            let saved = self.fb.take();
            let lv = Expr {
                kind: ExprKind::Var(v),
                ty: self.vars[v.0 as usize].ty.clone(),
            };
            if let Err(e) = self.initialize(lv, init, line) {
                self.global_errors.push(e);
            }
            self.fb = saved;
        }
    }

    fn poison_declarators(&mut self, d: &Node<Declaration>, e: &super::Unsup) {
        for id in &d.node.declarators {
            self.poison_one(&id.node.declarator, e);
        }
    }

    /// Makes later uses of a declarator's name report why it could not be lowered.
    fn poison_one(&mut self, d: &Node<Declarator>, e: &super::Unsup) {
        if let Some(name) = declarator_name(d) {
            let sig = Sig {
                unsupported: Some(e.msg.clone()),
                ..Sig::default()
            };
            if is_function_declarator(d) {
                self.declare_function(&name, sig, e.line);
            } else {
                self.bind(&name, Symbol::Poison(e.msg.clone()));
            }
        }
    }

    pub(super) fn function_definition(&mut self, fd: &Node<FunctionDefinition>) {
        let Some(name) = declarator_name(&fd.node.declarator) else {
            return;
        };
        if super::expr::builtin(&name).is_some() {
            return;
        }
        let line = self.line(fd.span);
        let specs = Specs::of_decl(&fd.node.specifiers);
        let declared = self
            .base_type(&specs, fd.span)
            .and_then(|b| self.declarator(b, &fd.node.declarator));
        let declared = match declared {
            Ok(d) => d,
            Err(e) => return self.poison_one(&fd.node.declarator, &e),
        };
        let mut sig = declared.sig.unwrap_or_default();
        let kr = kr_parameters(&fd.node.declarator).map(|ids| self.kr_types(ids, fd));
        if let Some(Ok(params)) = &kr {
            sig.params = params.iter().map(|(_, t, _)| t.clone()).collect();
            sig.unsupported = None;
            sig.variadic = false;
        }
        let id = self.declare_function(&name, sig.clone(), line);
        self.sigs[id.0 as usize] = sig.clone();
        self.begin_function(id, &sig, line);
        let params = match kr {
            Some(Ok(params)) => self.bind_kr_params(id, params),
            _ => self.bind_params(id, &fd.node.declarator),
        };
        self.statement(&fd.node.statement);
        self.end_function(id, params, line);
    }

    fn begin_function(&mut self, id: FuncId, sig: &Sig, line: u32) {
        let mut cfa = DiGraph::new();
        let entry = cfa.add_node(Loc::default());
        let exit = cfa.add_node(Loc::default());
        let ret = sig.ret.clone().unwrap_or(Type::Int(IntTy::INT));
        self.functions[id.0 as usize].ret = ret.clone();
        self.functions[id.0 as usize].line = line;
        self.fb = Some(FnBuilder {
            id,
            cfa,
            cur: entry,
            exit,
            ret,
            breaks: vec![],
            continues: vec![],
            labels: HashMap::new(),
            label_scopes: HashMap::new(),
            exits: vec![],
            switches: vec![],
        });
        self.push_scope();
        if let Some(why) = &sig.unsupported {
            self.emit(Op::Unsupported(format!("function with {why}")), line);
        }
        self.functions[id.0 as usize].va_area = sig.variadic.then(|| {
            let ty = Type::Int(IntTy::CHAR).ptr_to();
            let v = self.new_var("__va_area", ty, VarKind::Local(id), line);
            self.functions[id.0 as usize].locals.push(v);
            v
        });
    }

    /// The parameters of a K&R definition `f(a, b) int a; char *b; { ... }`: each name with
    /// its type from the declaration list (`int` when it has none) and its line.
    fn kr_types(
        &mut self,
        ids: &[Node<Identifier>],
        fd: &Node<FunctionDefinition>,
    ) -> Res<Vec<(String, Type, u32)>> {
        let mut declared = HashMap::new();
        for d in &fd.node.declarations {
            let specs = Specs::of_decl(&d.node.specifiers);
            let base = self.base_type(&specs, d.span)?;
            for id in &d.node.declarators {
                let r = self.declarator(base.clone(), &id.node.declarator)?;
                if let Some((name, _)) = r.name {
                    declared.insert(name, r.ty);
                }
            }
        }
        Ok(ids
            .iter()
            .map(|id| {
                let ty = declared
                    .remove(&id.node.name)
                    .unwrap_or(Type::Int(IntTy::INT));
                let ty = match ty {
                    Type::Array(t, _) => t.ptr_to(),
                    Type::Func => Type::Func.ptr_to(),
                    t => t,
                };
                (id.node.name.clone(), ty, self.line(id.span))
            })
            .collect())
    }

    fn bind_kr_params(&mut self, id: FuncId, params: Vec<(String, Type, u32)>) -> Vec<VarId> {
        let mut out = vec![];
        for (name, ty, line) in params {
            let v = self.new_var(&name, ty, VarKind::Local(id), line);
            self.functions[id.0 as usize].locals.push(v);
            self.bind(&name, Symbol::Var(v));
            out.push(v);
        }
        out
    }

    /// Creates and binds the parameter variables of a definition.
    fn bind_params(&mut self, id: FuncId, d: &Node<Declarator>) -> Vec<VarId> {
        let mut out = vec![];
        let Some(fdecl) = function_declarator(d) else {
            return out;
        };
        for p in &fdecl.parameters {
            let line = self.line(p.span);
            let ty = match self.param_type(p) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    self.emit(Op::Unsupported(e.msg), e.line);
                    Type::Int(IntTy::INT)
                }
            };
            let name = p
                .node
                .declarator
                .as_ref()
                .and_then(declarator_name)
                .unwrap_or_default();
            let v = self.new_var(&name, ty, VarKind::Local(id), line);
            self.functions[id.0 as usize].locals.push(v);
            self.bind(&name, Symbol::Var(v));
            out.push(v);
        }
        out
    }

    fn end_function(&mut self, id: FuncId, params: Vec<VarId>, line: u32) {
        self.finish_exits();
        self.pop_scope(line);
        let Some(mut b) = self.fb.take() else { return };
        let (cur, exit) = (b.cur, b.exit);
        b.cfa.add_edge(
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
        mark_loop_heads(&mut b.cfa, NodeIndex::new(0));
        let f = &mut self.functions[id.0 as usize];
        f.cfa = b.cfa;
        f.entry = NodeIndex::new(0);
        f.exit = exit;
        f.params = params;
        f.defined = true;
    }

    /// A declaration inside a function body.
    pub(super) fn local_declaration(&mut self, d: &Node<Declaration>) {
        if let Err(e) = self.local_declaration_inner(d) {
            self.emit(Op::Unsupported(e.msg.clone()), e.line);
            self.poison_declarators(d, &e);
        }
    }

    fn local_declaration_inner(&mut self, d: &Node<Declaration>) -> Res<()> {
        let specs = Specs::of_decl(&d.node.specifiers);
        let base = self.base_type(&specs, d.span)?;
        for id in &d.node.declarators {
            let line = self.line(id.span);
            if !specs.is_static
                && !specs.typedef
                && let Some((name, size)) = self.vla_parts(&id.node.declarator)
            {
                self.declare_vla(&name, &base, size, line)?;
                continue;
            }
            let r = self.declarator(base.clone(), &id.node.declarator)?;
            if specs.typedef || specs.is_extern || r.ty == Type::Func {
                self.declare_global(r, &specs, None, line);
                continue;
            }
            let Some((name, _)) = r.name.clone() else {
                continue;
            };
            if specs.is_static {
                self.static_local(&name, r, id.node.initializer.as_ref(), line);
                continue;
            }
            let f = self.b().id;
            let ty = self.complete_array(r.ty, id.node.initializer.as_ref());
            let v = self.new_var(&name, ty.clone(), VarKind::Local(f), line);
            self.functions[f.0 as usize].locals.push(v);
            self.bind(&name, Symbol::Var(v));
            let lv = Expr {
                kind: ExprKind::Var(v),
                ty,
            };
            match &id.node.initializer {
                Some(init) => self.initialize(lv, init, line)?,
                None => self.emit(Op::Havoc(v), line),
            }
        }
        Ok(())
    }

    /// The name and size expression of `T name[size]` when `size` is not a constant: a
    /// variable-length array (of elements of the base type).
    fn vla_parts<'d>(&mut self, d: &'d Node<Declarator>) -> Option<(String, &'d Node<Expression>)> {
        let DeclaratorKind::Identifier(id) = &d.node.kind.node else {
            return None;
        };
        let [dd] = d.node.derived.as_slice() else {
            return None;
        };
        let DerivedDeclarator::Array(a) = &dd.node else {
            return None;
        };
        let (ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e)) = &a.node.size
        else {
            return None;
        };
        self.const_eval(e)
            .is_none()
            .then(|| (id.node.name.clone(), &**e))
    }

    /// `T a[n]` with `n` known at run time: a stack block of `n * sizeof(T)` bytes (released
    /// when the function returns), `a` its address and `sizeof a` its size.
    fn declare_vla(&mut self, name: &str, elem: &Type, n: &Node<Expression>, line: u32) -> Res<()> {
        let size_t = Type::Int(self.model.size_t());
        let n = self.rvalue(n)?;
        let n = self.convert(n, &size_t, Span::none())?;
        let f = self.b().id;
        let ptr = self.new_var(name, elem.clone().ptr_to(), VarKind::Local(f), line);
        let size = self.new_var(
            &format!("{name}.size"),
            size_t.clone(),
            VarKind::Local(f),
            line,
        );
        self.functions[f.0 as usize].locals.extend([ptr, size]);
        let var = |v: VarId, ty: &Type| Expr {
            kind: ExprKind::Var(v),
            ty: ty.clone(),
        };
        let bytes = Expr {
            ty: size_t.clone(),
            kind: ExprKind::Binary(
                BinOp::Mul,
                Box::new(n),
                Box::new(Expr::int(self.size_of(elem) as i64, self.model.size_t())),
            ),
        };
        self.emit(
            Op::Assign {
                lhs: var(size, &size_t),
                rhs: bytes,
            },
            line,
        );
        self.emit(
            Op::Call {
                lhs: Some(var(ptr, &elem.clone().ptr_to())),
                callee: Callee::Builtin(Builtin::Alloc(AllocKind::Alloca)),
                args: vec![var(size, &size_t)],
            },
            line,
        );
        self.bind(name, Symbol::Vla { ptr, size });
        Ok(())
    }

    /// `int a[] = {1, 2, 3}` and `char s[] = "ab"` get their size from the initialiser.
    fn complete_array(&self, ty: Type, init: Option<&Node<Initializer>>) -> Type {
        match (ty, init.map(|i| &i.node)) {
            (Type::Array(t, 0), Some(Initializer::List(items))) => {
                Type::Array(t, items.len() as u64)
            }
            (Type::Array(t, 0), Some(Initializer::Expression(e))) => match &e.node {
                Expression::StringLiteral(l) => match super::literal::string_literal(&l.node) {
                    Ok(lit) => Type::Array(t, lit.units.len() as u64 + 1),
                    Err(_) => Type::Array(t, 0),
                },
                _ => Type::Array(t, 0),
            },
            (t, _) => t,
        }
    }

    fn static_local(
        &mut self,
        name: &str,
        r: Declared,
        init: Option<&Node<Initializer>>,
        line: u32,
    ) {
        let fid = self.b().id;
        let fname = self.functions[fid.0 as usize].name.clone();
        let v = self.new_var(
            &format!("{fname}::{name}"),
            r.ty.clone(),
            VarKind::Global,
            line,
        );
        self.globals.push(v);
        self.bind(name, Symbol::Var(v));
        if let Some(init) = init {
            let saved = self.fb.take();
            let lv = Expr {
                kind: ExprKind::Var(v),
                ty: r.ty,
            };
            if let Err(e) = self.initialize(lv, init, line) {
                self.global_errors.push(e);
            }
            self.fb = saved;
        }
    }

    /// Emits the assignments of an initialiser to `lv`.
    pub(super) fn initialize(&mut self, lv: Expr, init: &Node<Initializer>, line: u32) -> Res<()> {
        match &init.node {
            Initializer::Expression(e) => {
                if matches!(lv.ty, Type::Array(..)) {
                    return self.initialize_string(lv, e, line);
                }
                self.assign_to(lv, e, line)?;
                Ok(())
            }
            Initializer::List(items) => self.initialize_items(lv, items, line),
        }
    }

    /// Initialises `lv` from a brace-enclosed list: zero, then the listed sub-objects.
    pub(super) fn initialize_items(
        &mut self,
        lv: Expr,
        items: &[Node<InitializerListItem>],
        line: u32,
    ) -> Res<()> {
        self.zero_fill(&lv, line);
        self.initialize_list(lv, items, line)
    }

    /// `char s[N] = "..."`: the characters, the terminating zero and zeros up to `N`.
    fn initialize_string(&mut self, lv: Expr, e: &Node<Expression>, line: u32) -> Res<()> {
        let Expression::StringLiteral(l) = &e.node else {
            return self.unsup(e.span, "array initialised from an expression");
        };
        let lit = super::literal::string_literal(&l.node).or_else(|why| self.unsup(e.span, why))?;
        let Type::Array(elem, n) = &lv.ty else {
            return self.unsup(e.span, "a string initialising a non-array");
        };
        if **elem != Type::Int(lit.elem) && lit.elem.size() != self.size_of(elem) {
            return self.unsup(e.span, "a string initialising an array of another type");
        }
        if lit.units.len() as u64 > *n {
            return self.unsup(e.span, "a string longer than the array it initialises");
        }
        self.zero_fill(&lv, line);
        for (i, u) in lit.units.iter().enumerate() {
            let sub = self.sub_object(&lv, i).ok_or(super::Unsup {
                msg: "string initialiser".into(),
                line,
            })?;
            let v = Expr::int(i64::from(*u), lit.elem);
            let v = self.convert(v, &sub.ty, e.span)?;
            self.emit(Op::Assign { lhs: sub, rhs: v }, line);
        }
        Ok(())
    }

    fn initialize_list(
        &mut self,
        lv: Expr,
        items: &[Node<InitializerListItem>],
        line: u32,
    ) -> Res<()> {
        let mut pos = 0usize;
        for item in items {
            if let Some(d) = item.node.designation.first() {
                pos = self.designator_position(&lv.ty, d)?;
            }
            let Some(sub) = self.sub_object(&lv, pos) else {
                if lv.ty.is_scalar() && pos == 0 {
                    self.initialize(lv.clone(), &item.node.initializer, line)?;
                    pos += 1;
                    continue;
                }
                return self.unsup(item.span, "excess elements in initialiser");
            };
            self.initialize(sub, &item.node.initializer, line)?;
            pos += 1;
        }
        Ok(())
    }

    fn designator_position(&mut self, ty: &Type, d: &Node<Designator>) -> Res<usize> {
        match (&d.node, ty) {
            (Designator::Member(id), Type::Struct(s)) => self.structs[s.0 as usize]
                .fields
                .iter()
                .position(|f| f.name == id.node.name)
                .map_or_else(
                    || self.unsup(d.span, format!("no field `{}`", id.node.name)),
                    Ok,
                ),
            (Designator::Index(e), Type::Array(..)) => match self.const_eval(e) {
                Some(i) if i >= 0 => Ok(i as usize),
                _ => self.unsup(d.span, "non-constant array designator"),
            },
            _ => self.unsup(d.span, "this designator"),
        }
    }

    /// The `pos`-th member or element of an aggregate lvalue.
    fn sub_object(&self, lv: &Expr, pos: usize) -> Option<Expr> {
        match &lv.ty {
            Type::Struct(s) => {
                let f = self.structs[s.0 as usize].fields.get(pos)?;
                Some(super::expr::field_expr(lv.clone(), f))
            }
            Type::Array(t, n) if (pos as u64) < *n => {
                Some(element(lv, t, pos as u64, self.size_of(t)))
            }
            _ => None,
        }
    }

    /// Assigns zero to every scalar leaf of an aggregate (C's rule for partial initialisers);
    /// an aggregate with many leaves is cleared by one `memset` instead.
    fn zero_fill(&mut self, lv: &Expr, line: u32) {
        if leaf_count(&self.structs, &lv.ty) > MAX_ZERO_LEAVES {
            let size = self.size_of(&lv.ty);
            let args = vec![
                Expr {
                    kind: ExprKind::AddrOf(Box::new(lv.clone())),
                    ty: Type::Void.ptr_to(),
                },
                Expr::int(0, IntTy::INT),
                Expr::int(size as i64, self.model.size_t()),
            ];
            let callee = Callee::Builtin(Builtin::Memset);
            let op = Op::Call {
                lhs: None,
                callee,
                args,
            };
            self.emit(op, line);
            return;
        }
        if lv.ty.is_scalar() {
            let zero = Expr {
                kind: ExprKind::Const(0),
                ty: lv.ty.clone(),
            };
            self.emit(
                Op::Assign {
                    lhs: lv.clone(),
                    rhs: zero,
                },
                line,
            );
            return;
        }
        let count = match &lv.ty {
            Type::Struct(s) => self.structs[s.0 as usize].fields.len(),
            Type::Array(_, n) => *n as usize,
            _ => 0,
        };
        for i in 0..count {
            if let Some(sub) = self.sub_object(lv, i) {
                self.zero_fill(&sub, line);
            }
        }
    }
}

/// Aggregates with more scalar leaves than this are zeroed by one `memset`.
const MAX_ZERO_LEAVES: u64 = 64;

/// The number of scalar leaves of a type (saturating).
fn leaf_count(structs: &[StructDef], ty: &Type) -> u64 {
    match ty {
        Type::Struct(s) => structs[s.0 as usize]
            .fields
            .iter()
            .fold(0u64, |n, f| n.saturating_add(leaf_count(structs, &f.ty))),
        Type::Array(t, n) => leaf_count(structs, t).saturating_mul(*n),
        _ => 1,
    }
}

/// `lv[i]` for an array lvalue.
fn element(lv: &Expr, elem: &Type, i: u64, size: u64) -> Expr {
    let base = Expr {
        kind: ExprKind::AddrOf(Box::new(lv.clone())),
        ty: elem.clone().ptr_to(),
    };
    let idx = Expr::int(i as i64, IntTy::new(64, false));
    let p = Expr {
        kind: ExprKind::PtrAdd(Box::new(base), Box::new(idx), size),
        ty: elem.clone().ptr_to(),
    };
    Expr {
        kind: ExprKind::Deref(Box::new(p)),
        ty: elem.clone(),
    }
}

/// The identifier a declarator declares.
pub(super) fn declarator_name(d: &Node<Declarator>) -> Option<String> {
    match &d.node.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(inner),
        DeclaratorKind::Abstract => None,
    }
}

/// The parameter list of a function declarator (innermost declarator that names the function).
fn function_declarator(d: &Node<Declarator>) -> Option<&FunctionDeclarator> {
    if let DeclaratorKind::Declarator(inner) = &d.node.kind.node
        && let Some(f) = function_declarator(inner)
    {
        return Some(f);
    }
    d.node.derived.iter().find_map(|dd| match &dd.node {
        DerivedDeclarator::Function(f) => Some(&f.node),
        _ => None,
    })
}

/// The identifier list of a K&R function declarator with parameters, if it is one.
fn kr_parameters(d: &Node<Declarator>) -> Option<&[Node<Identifier>]> {
    if let DeclaratorKind::Declarator(inner) = &d.node.kind.node
        && let Some(ids) = kr_parameters(inner)
    {
        return Some(ids);
    }
    d.node.derived.iter().find_map(|dd| match &dd.node {
        DerivedDeclarator::KRFunction(ids) if !ids.is_empty() => Some(ids.as_slice()),
        _ => None,
    })
}

fn is_function_declarator(d: &Node<Declarator>) -> bool {
    matches!(
        d.node.derived.first().map(|x| &x.node),
        Some(DerivedDeclarator::Function(_))
    ) || matches!(&d.node.kind.node, DeclaratorKind::Declarator(i) if is_function_declarator(i))
}
