//! Statement lowering: structured control flow, `goto`, `switch` and `return` to CFA edges.
//! A statement the IR cannot express becomes an [`Op::Unsupported`] edge at its line.

use super::lifetime::Stays;
use super::{Lowerer, Res, SwitchCtx};
use crate::program::ir::*;
use lang_c::ast::*;
use lang_c::span::Node;
use petgraph::graph::NodeIndex;

impl Lowerer<'_> {
    /// Lowers one statement; unsupported constructs become an `Unsupported` edge.
    pub(super) fn statement(&mut self, s: &Node<Statement>) {
        let at = self.column_of(s.span);
        let outer = std::mem::replace(&mut self.column, at);
        if let Err(e) = self.statement_inner(s) {
            self.emit(Op::Unsupported(e.msg), e.line);
        }
        self.column = outer;
    }

    pub(super) fn block_item(&mut self, item: &Node<BlockItem>) {
        if let BlockItem::Declaration(d) = &item.node {
            let at = self.column_of(d.span);
            let outer = std::mem::replace(&mut self.column, at);
            self.local_declaration(d);
            self.column = outer;
            return;
        }
        match &item.node {
            BlockItem::Statement(s) => self.statement(s),
            BlockItem::Declaration(d) => self.local_declaration(d),
            BlockItem::StaticAssert(_) => {}
        }
    }

    fn statement_inner(&mut self, s: &Node<Statement>) -> Res<()> {
        let line = self.line(s.span);
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                for it in items {
                    self.block_item(it);
                }
                self.pop_scope(self.src.line_of(s.span.end));
            }
            Statement::Expression(Some(e)) => self.effect(e)?,
            Statement::Expression(None) => {}
            Statement::If(i) => self.if_stmt(i)?,
            Statement::While(w) => self.while_stmt(&w.node.expression, &w.node.statement)?,
            Statement::DoWhile(d) => self.do_while(d)?,
            Statement::For(f) => self.for_stmt(f)?,
            Statement::Labeled(l) => self.labeled(l)?,
            Statement::Goto(id) => {
                let to = self.label(&id.node.name);
                self.b().cfa[to].loop_head = true;
                self.jump_out(to, line, Stays::Label(id.node.name.clone()));
            }
            Statement::Continue => match self.b().continues.last().copied() {
                Some((to, depth)) => self.jump_out(to, line, Stays::Depth(depth)),
                None => return self.unsup(s.span, "`continue` outside a loop"),
            },
            Statement::Break => match self.b().breaks.last().copied() {
                Some((to, depth)) => self.jump_out(to, line, Stays::Depth(depth)),
                None => return self.unsup(s.span, "`break` outside a loop or switch"),
            },
            Statement::Return(e) => self.return_stmt(e.as_deref(), line)?,
            Statement::Switch(sw) => self.switch(sw)?,
            Statement::Asm(a) => self.asm(a)?,
        }
        Ok(())
    }

    /// Inline assembly that cannot change the program's state is skipped: an empty template
    /// (a compiler barrier such as `asm volatile("" ::: "memory")`), extended asm with no
    /// outputs and no memory clobber, and basic asm made of fences and no-ops (`nop`,
    /// `pause`, `mfence`). Anything else is unsupported.
    fn asm(&mut self, a: &Node<AsmStatement>) -> Res<()> {
        let text = |l: &Node<StringLiteral>| {
            super::literal::string_literal(&l.node)
                .map(|s| {
                    s.units
                        .iter()
                        .filter_map(|u| char::from_u32(*u))
                        .collect::<String>()
                })
                .unwrap_or_default()
        };
        let harmless = match &a.node {
            AsmStatement::GnuBasic(t) => text(t).split([';', '\n']).map(str::trim).all(|i| {
                matches!(
                    i,
                    "" | "nop" | "pause" | "mfence" | "lfence" | "sfence" | "rep"
                )
            }),
            AsmStatement::GnuExtended(x) => {
                let memory = x.clobbers.iter().any(|c| text(c).trim() == "memory");
                let empty = text(&x.template).trim().is_empty();
                (empty && x.outputs.is_empty()) || (x.outputs.is_empty() && !memory)
            }
        };
        if harmless {
            return Ok(());
        }
        self.unsup(a.span, "inline assembly that writes the program's state")
    }

    /// An expression evaluated for its side effects only: `i++` needs no copy of the old value.
    fn effect(&mut self, e: &Node<Expression>) -> Res<()> {
        if let Expression::UnaryOperator(u) = &e.node {
            let line = self.line(e.span);
            match u.node.operator.node {
                UnaryOperator::PostIncrement => {
                    return self.increment(&u.node.operand, 1, false, line).map(drop);
                }
                UnaryOperator::PostDecrement => {
                    return self.increment(&u.node.operand, -1, false, line).map(drop);
                }
                _ => {}
            }
        }
        self.rvalue(e).map(drop)
    }

    fn label(&mut self, name: &str) -> NodeIndex {
        if let Some(n) = self.b().labels.get(name) {
            return *n;
        }
        let n = self.new_node();
        self.b().labels.insert(name.to_string(), n);
        n
    }

    fn if_stmt(&mut self, i: &Node<IfStatement>) -> Res<()> {
        let line = self.line(i.span);
        let (yes, no, join) = (self.new_node(), self.new_node(), self.new_node());
        self.cond(&i.node.condition, yes, no)?;
        self.set_cur(yes);
        self.statement(&i.node.then_statement);
        self.jump(join, line);
        self.set_cur(no);
        if let Some(e) = &i.node.else_statement {
            self.statement(e);
        }
        self.jump(join, line);
        self.set_cur(join);
        Ok(())
    }

    fn while_stmt(&mut self, cond: &Node<Expression>, body: &Node<Statement>) -> Res<()> {
        let line = self.line(cond.span);
        let head = self.new_node();
        self.jump(head, line);
        self.set_cur(head);
        let (inside, exit) = (self.new_node(), self.new_node());
        self.cond(cond, inside, exit)?;
        self.set_cur(inside);
        self.loop_body(body, exit, head);
        self.jump(head, line);
        self.set_cur(exit);
        Ok(())
    }

    fn loop_body(&mut self, body: &Node<Statement>, brk: NodeIndex, cont: NodeIndex) {
        let depth = self.scopes.len();
        self.b().breaks.push((brk, depth));
        self.b().continues.push((cont, depth));
        self.statement(body);
        self.b().breaks.pop();
        self.b().continues.pop();
    }

    fn do_while(&mut self, d: &Node<DoWhileStatement>) -> Res<()> {
        let line = self.line(d.span);
        let (head, check, exit) = (self.new_node(), self.new_node(), self.new_node());
        self.jump(head, line);
        self.set_cur(head);
        self.loop_body(&d.node.statement, exit, check);
        self.jump(check, line);
        self.set_cur(check);
        self.cond(&d.node.expression, head, exit)?;
        self.set_cur(exit);
        Ok(())
    }

    fn for_stmt(&mut self, f: &Node<ForStatement>) -> Res<()> {
        let line = self.line(f.span);
        self.push_scope();
        match &f.node.initializer.node {
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
            ForInitializer::Expression(e) => {
                self.rvalue(e)?;
            }
            ForInitializer::Declaration(d) => self.local_declaration(d),
        }
        let (head, inside, step, exit) = (
            self.new_node(),
            self.new_node(),
            self.new_node(),
            self.new_node(),
        );
        self.jump(head, line);
        self.set_cur(head);
        match &f.node.condition {
            Some(c) => self.cond(c, inside, exit)?,
            None => self.jump(inside, line),
        }
        self.set_cur(inside);
        self.loop_body(&f.node.statement, exit, step);
        self.jump(step, line);
        self.set_cur(step);
        if let Some(e) = &f.node.step {
            self.effect(e)?;
        }
        self.jump(head, line);
        self.set_cur(exit);
        self.pop_scope(line);
        Ok(())
    }

    fn labeled(&mut self, l: &Node<LabeledStatement>) -> Res<()> {
        let line = self.line(l.span);
        let target = match &l.node.label.node {
            Label::Identifier(id) => {
                self.define_label_scope(&id.node.name);
                self.label(&id.node.name)
            }
            Label::Case(e) => {
                let Some(v) = self.const_eval(e) else {
                    return self.unsup(e.span, "non-constant case label");
                };
                let sw = self.b().switches.last();
                if sw.is_some_and(|sw| sw.cases.iter().any(|(c, _)| *c == v)) {
                    return self.input_error(e.span, format!("duplicate case value `{v}`"));
                }
                let n = self.new_node();
                match self.b().switches.last_mut() {
                    Some(sw) => sw.cases.push((v, n)),
                    None => return self.unsup(l.span, "`case` outside a switch"),
                }
                n
            }
            Label::Default => {
                if self
                    .b()
                    .switches
                    .last()
                    .is_some_and(|sw| sw.default.is_some())
                {
                    return self.input_error(l.span, "multiple `default` labels in one switch");
                }
                let n = self.new_node();
                match self.b().switches.last_mut() {
                    Some(sw) => sw.default = Some(n),
                    None => return self.unsup(l.span, "`default` outside a switch"),
                }
                n
            }
            Label::CaseRange(_) => return self.unsup(l.span, "case ranges"),
        };
        self.jump(target, line);
        self.set_cur(target);
        self.statement(&l.node.statement);
        Ok(())
    }

    fn switch(&mut self, sw: &Node<SwitchStatement>) -> Res<()> {
        let line = self.line(sw.span);
        let v = self.rvalue(&sw.node.expression)?;
        let Some(t) = v.ty.as_int() else {
            return self.unsup(sw.span, "switch on a non-integer");
        };
        let ty = Type::Int(super::types::promote(t));
        let tmp = self.temp(ty.clone(), line);
        let v = self.convert(v, &ty, sw.span)?;
        self.emit(
            Op::Assign {
                lhs: tmp.clone(),
                rhs: v,
            },
            line,
        );
        let dispatch = self.cur();
        let exit = self.new_node();
        let body_start = self.new_node();
        self.set_cur(body_start);
        self.b().switches.push(SwitchCtx::default());
        let depth = self.scopes.len();
        self.b().breaks.push((exit, depth));
        self.statement(&sw.node.statement);
        self.b().breaks.pop();
        let ctx = self.b().switches.pop().unwrap_or_default();
        self.jump(exit, line);
        self.dispatch(dispatch, &tmp, ctx, exit, line);
        self.set_cur(exit);
        Ok(())
    }

    /// The chain of tests `tmp == c` that enters the case bodies.
    fn dispatch(
        &mut self,
        from: NodeIndex,
        tmp: &Expr,
        ctx: SwitchCtx,
        exit: NodeIndex,
        line: u32,
    ) {
        let mut at = from;
        for (c, target) in ctx.cases {
            let test = Expr {
                kind: ExprKind::Cmp(
                    CmpOp::Eq,
                    Box::new(tmp.clone()),
                    Box::new(Expr {
                        kind: ExprKind::Const(c),
                        ty: tmp.ty.clone(),
                    }),
                ),
                ty: Type::Int(IntTy::INT),
            };
            let next = self.new_node();
            self.add_edge(
                at,
                target,
                Op::Assume {
                    cond: test.clone(),
                    positive: true,
                },
                line,
            );
            self.add_edge(
                at,
                next,
                Op::Assume {
                    cond: test,
                    positive: false,
                },
                line,
            );
            at = next;
        }
        self.add_edge(at, ctx.default.unwrap_or(exit), Op::Skip, line);
    }

    fn return_stmt(&mut self, e: Option<&Node<Expression>>, line: u32) -> Res<()> {
        let ret = self.b().ret.clone();
        let value = match e {
            Some(e) => {
                let v = self.rvalue(e)?;
                if ret == Type::Void {
                    None
                } else {
                    Some(self.convert(v, &ret, e.span)?)
                }
            }
            None => None,
        };
        let exit = self.b().exit;
        let from = self.cur();
        self.add_edge(from, exit, Op::Return(value), line);
        let dead = self.new_node();
        self.set_cur(dead);
        Ok(())
    }
}
