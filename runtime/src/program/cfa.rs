//! Printing the program IR: C-like text for expressions and operations, a listing of every
//! function's CFA (`shapecheck cfa`), and Graphviz DOT output.

use crate::explicit::term::{bin_symbol, cmp_symbol};
use crate::program::ir::*;
use petgraph::visit::EdgeRef;
use std::fmt::Write;

/// C-like text of an expression.
pub fn expr(p: &Program, e: &Expr) -> String {
    match &e.kind {
        ExprKind::Const(c) if matches!(e.ty, Type::Ptr(_)) && *c == 0 => "NULL".into(),
        ExprKind::Const(c) => c.to_string(),
        ExprKind::Var(v) => p.var(*v).name.clone(),
        ExprKind::Deref(x) => match &x.kind {
            ExprKind::PtrAdd(b, i, _) => format!("{}[{}]", expr(p, b), expr(p, i)),
            _ => format!("*{}", atom(p, x)),
        },
        ExprKind::Field(b, _, name) => match &b.kind {
            ExprKind::Deref(ptr) if !matches!(ptr.kind, ExprKind::PtrAdd(..)) => {
                format!("{}->{name}", atom(p, ptr))
            }
            _ => format!("{}.{name}", atom(p, b)),
        },
        ExprKind::BitField(unit, spec) => {
            format!(
                "{}:{}..{}",
                expr(p, unit),
                spec.shift,
                spec.shift + spec.width
            )
        }
        ExprKind::AddrOf(x) => format!("&{}", atom(p, x)),
        ExprKind::FuncAddr(f) => p.func(*f).name.clone(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Unary(UnOp::Neg, x) => format!("-{}", atom(p, x)),
        ExprKind::Unary(UnOp::Not, x) => format!("~{}", atom(p, x)),
        ExprKind::Binary(op, a, b) => format!("{} {} {}", atom(p, a), bin_symbol(*op), atom(p, b)),
        ExprKind::Cmp(op, a, b) => format!("{} {} {}", atom(p, a), cmp_symbol(*op), atom(p, b)),
        ExprKind::Cast(x) => format!("({}){}", type_name(p, &e.ty), atom(p, x)),
        ExprKind::PtrAdd(a, b, _) => format!("{} + {}", atom(p, a), atom(p, b)),
        ExprKind::PtrDiff(a, b, _) => format!("{} - {}", atom(p, a), atom(p, b)),
    }
}

fn atom(p: &Program, e: &Expr) -> String {
    let s = expr(p, e);
    match e.kind {
        ExprKind::Binary(..) | ExprKind::Cmp(..) | ExprKind::PtrAdd(..) | ExprKind::PtrDiff(..) => {
            format!("({s})")
        }
        _ => s,
    }
}

/// C-like spelling of a type.
pub fn type_name(p: &Program, t: &Type) -> String {
    match t {
        Type::Void => "void".into(),
        Type::Int(i) => i.to_string(),
        Type::Ptr(x) => format!("{}*", type_name(p, x)),
        Type::Struct(s) => p.strukt(*s).name.clone(),
        Type::Array(x, n) => format!("{}[{n}]", type_name(p, x)),
        Type::Func => "fn".into(),
    }
}

/// C-like text of an operation.
pub fn op(p: &Program, o: &Op) -> String {
    match o {
        Op::Skip => "skip".into(),
        Op::Assign { lhs, rhs } => format!("{} = {}", expr(p, lhs), expr(p, rhs)),
        Op::Assume {
            cond,
            positive: true,
        } => format!("[{}]", expr(p, cond)),
        Op::Assume {
            cond,
            positive: false,
        } => format!("[!({})]", expr(p, cond)),
        Op::Havoc(v) => format!("{} = <uninitialised>", p.var(*v).name),
        Op::Call { lhs, callee, args } => {
            let name = match callee {
                Callee::Func(f) => p.func(*f).name.clone(),
                Callee::Builtin(Builtin::ScopeEnd) => "scope_end".into(),
                Callee::Builtin(b) => format!("{b:?}").to_lowercase(),
            };
            call_text(p, lhs.as_ref(), &name, args)
        }
        Op::CallPtr { lhs, target, args } => {
            call_text(p, lhs.as_ref(), &format!("(*{})", expr(p, target)), args)
        }
        Op::Return(Some(e)) => format!("return {}", expr(p, e)),
        Op::Return(None) => "return".into(),
        Op::Unsupported(m) => format!("unsupported: {m}"),
    }
}

fn call_text(p: &Program, lhs: Option<&Expr>, name: &str, args: &[Expr]) -> String {
    let args: Vec<String> = args.iter().map(|a| expr(p, a)).collect();
    let call = format!("{name}({})", args.join(", "));
    match lhs {
        Some(l) => format!("{} = {call}", expr(p, l)),
        None => call,
    }
}

/// A listing of every defined function's CFA.
pub fn listing(p: &Program) -> String {
    let mut out = String::new();
    for f in p.functions.iter().filter(|f| f.defined) {
        let _ = writeln!(
            out,
            "function {} (entry {}, exit {})",
            f.name,
            f.entry.index(),
            f.exit.index()
        );
        for e in f.cfa.edge_references() {
            let head = if f.cfa[e.source()].loop_head {
                "*"
            } else {
                " "
            };
            let _ = writeln!(
                out,
                " {head}{:>4} -> {:<4} line {:<5} {}",
                e.source().index(),
                e.target().index(),
                e.weight().line,
                op(p, &e.weight().op)
            );
        }
    }
    out
}

/// Graphviz DOT text of every defined function's CFA, one cluster per function.
pub fn dot(p: &Program) -> String {
    let mut out = String::from("digraph program {\n  node [shape=circle, fontsize=10];\n");
    for (i, f) in p.functions.iter().enumerate().filter(|(_, f)| f.defined) {
        let _ = writeln!(out, "  subgraph cluster_{i} {{\n    label={:?};", f.name);
        for n in f.cfa.node_indices() {
            let shape = if f.cfa[n].loop_head {
                "doublecircle"
            } else {
                "circle"
            };
            let _ = writeln!(
                out,
                "    f{i}_{} [label=\"{}\", shape={shape}];",
                n.index(),
                n.index()
            );
        }
        for e in f.cfa.edge_references() {
            let label = format!("{}: {}", e.weight().line, op(p, &e.weight().op));
            let _ = writeln!(
                out,
                "    f{i}_{} -> f{i}_{} [label={:?}];",
                e.source().index(),
                e.target().index(),
                label
            );
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}
