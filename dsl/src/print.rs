//! The printer: an AST back to `.shape` text, in a canonical layout. Parsing the printed text
//! gives the same AST up to spans (the round-trip test checks this).

use crate::ast::*;

/// Prints a whole spec.
pub fn print(spec: &Spec) -> String {
    spec.items.iter().map(item).collect::<Vec<_>>().join("\n")
}

fn item(i: &Item) -> String {
    match i {
        Item::Predicate(p) => {
            let ptr = p
                .pointer
                .as_ref()
                .map(|x| format!("<{}>", x.name))
                .unwrap_or_default();
            format!(
                "predicate {}{}{ptr}({}) := {};\n",
                p.name.name,
                roles(&p.roles),
                names(&p.params),
                formula(&p.body)
            )
        }
        Item::Invariant(i) => format!(
            "invariant {}{} := {};\n",
            i.name.name,
            roles(&i.roles),
            formula(&i.body)
        ),
        Item::Structure(s) => structure(s),
        Item::Template(t) => crate::template::print(t),
        Item::Contract(c) => crate::contract::print(c),
        Item::Spatial(s) => crate::spatial::print(s),
        Item::PredFamily(f) => crate::family::print(f),
    }
}

fn names(v: &[Ident]) -> String {
    v.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn roles(v: &[Ident]) -> String {
    format!("[{}]", names(v))
}

fn instance(i: &Instance) -> String {
    format!("{}{}", i.name.name, roles(&i.roles))
}

fn instances(v: &[Instance]) -> String {
    v.iter().map(instance).collect::<Vec<_>>().join(", ")
}

fn structure(s: &StructureDecl) -> String {
    let mut out = format!("structure {}{}", s.name.name, roles(&s.roles));
    if !s.refines.is_empty() {
        out.push_str(&format!(" refines {}", instances(&s.refines)));
    }
    out.push_str(" {\n");
    if !s.invariants.is_empty() {
        out.push_str(&format!("  invariant {};\n", instances(&s.invariants)));
    }
    for f in &s.families {
        let req = if f.requires.is_empty() {
            String::new()
        } else {
            format!(" requires {}", names(&f.requires))
        };
        out.push_str(&format!(
            "  family {} = {}{req};\n",
            f.name.name,
            instances(&f.preds)
        ));
    }
    if !s.abstracts.is_empty() {
        out.push_str(&format!("  abstract {};\n", names(&s.abstracts)));
    }
    out.push_str("}\n");
    out
}

/// Prints a formula with full parentheses around binary connectives.
pub fn formula(f: &Formula) -> String {
    match &f.kind {
        FormulaKind::True => "true".into(),
        FormulaKind::False => "false".into(),
        FormulaKind::Eq { left, right, equal } => {
            format!(
                "{} {} {}",
                left.name,
                if *equal { "==" } else { "!=" },
                right.name
            )
        }
        FormulaKind::Atom {
            name,
            roles: r,
            closure,
            args,
        } => {
            let r = r.as_ref().map(|r| roles(r)).unwrap_or_default();
            let c = match closure {
                Some(Closure::Plus) => "+",
                Some(Closure::Star) => "*",
                None => "",
            };
            format!("{}{r}{c}({})", name.name, names(args))
        }
        FormulaKind::Not(a) => format!("!{}", atomic(a)),
        FormulaKind::And(a, b) => format!("({} && {})", formula(a), formula(b)),
        FormulaKind::Or(a, b) => format!("({} || {})", formula(a), formula(b)),
        FormulaKind::Implies(a, b) => format!("({} -> {})", formula(a), formula(b)),
        FormulaKind::Iff(a, b) => format!("({} <-> {})", formula(a), formula(b)),
        FormulaKind::Old(a) => format!("old({})", formula(a)),
        FormulaKind::Quant { q, vars, body } => {
            let q = match q {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
            };
            format!("({q} {}. {})", names(vars), formula(body))
        }
    }
}

fn atomic(f: &Formula) -> String {
    match f.kind {
        FormulaKind::Eq { .. } => format!("({})", formula(f)),
        _ => formula(f),
    }
}

/// A report of a checked spec: predicates with their formulas, invariants, structures with
/// their families, the lattice of generators, and, when there are any, the templates in
/// source syntax with their merged configuration, the contracts and the spatial domains in
/// source syntax (`shapecheck spec show`).
pub fn show_ir(spec: &crate::ir::Spec) -> String {
    use crate::ir::StructId;
    let mut out = String::from("predicates:\n");
    for p in &spec.predicates {
        let ptr = p
            .pointer
            .as_ref()
            .map(|x| format!("<{x}>"))
            .unwrap_or_default();
        let params = p.var_names[..p.arity].join(", ");
        let body = ir_formula(spec, &p.body, &p.roles, &p.var_names, p.pointer.as_deref());
        out.push_str(&format!(
            "  {}[{}]{ptr}({params}) := {body}\n",
            p.name,
            p.roles.join(", ")
        ));
    }
    out.push_str("invariants:\n");
    for i in &spec.invariants {
        let body = ir_formula(spec, &i.body, &i.roles, &i.var_names, None);
        out.push_str(&format!("  {}[{}] := {body}\n", i.name, i.roles.join(", ")));
    }
    out.push_str("structures:\n");
    for (k, s) in spec.structures.iter().enumerate() {
        out.push_str(&format!("  {}[{}]\n", s.name, s.roles.join(", ")));
        for r in &s.refines {
            let c = &spec.structures[r.coarser.0];
            let roles: Vec<&str> = r.roles.iter().map(|i| s.roles[*i].as_str()).collect();
            out.push_str(&format!("    refines {}[{}]\n", c.name, roles.join(", ")));
        }
        for u in &s.invariants {
            let roles: Vec<&str> = u.roles.iter().map(|i| s.roles[*i].as_str()).collect();
            out.push_str(&format!(
                "    invariant {}[{}]\n",
                spec.invariants[u.inv.0].name,
                roles.join(", ")
            ));
        }
        for f in &s.families {
            let preds: Vec<String> = f
                .preds
                .iter()
                .map(|u| {
                    let roles: Vec<&str> = u.roles.iter().map(|i| s.roles[*i].as_str()).collect();
                    format!("{}[{}]", spec.predicates[u.pred.0].name, roles.join(", "))
                })
                .collect();
            let req: Vec<&str> = f
                .requires
                .iter()
                .map(|i| s.families[*i].name.as_str())
                .collect();
            let req = if req.is_empty() {
                String::new()
            } else {
                format!(" (requires {})", req.join(", "))
            };
            let abs = if f.abstraction { " [abstraction]" } else { "" };
            out.push_str(&format!(
                "    family {} = {}{req}{abs}\n",
                f.name,
                preds.join(", ")
            ));
        }
        let gens = crate::lattice::generators(spec, StructId(k));
        let list: Vec<String> = gens
            .iter()
            .map(|g| {
                let names: Vec<&str> = g
                    .families
                    .iter()
                    .map(|i| s.families[*i].name.as_str())
                    .collect();
                format!("{{{}}}", names.join(", "))
            })
            .collect();
        out.push_str(&format!(
            "    generators ({}, coarsest first): {}\n",
            gens.len(),
            list.join(", ")
        ));
    }
    out.push_str("lattice (⊑ is `refines`: finer below coarser; m0, with no predicates, is above every generator):\n");
    for s in &spec.structures {
        for r in &s.refines {
            out.push_str(&format!(
                "  {} ⊑ {}\n",
                s.name, spec.structures[r.coarser.0].name
            ));
        }
    }
    out.push_str(&crate::template::show(spec));
    out.push_str(&crate::family::show(spec));
    out.push_str(&crate::contract::show(spec));
    out.push_str(&crate::spatial::show(spec));
    out
}

/// A checked formula in `.shape` syntax, with the declaration's role and variable names and
/// its tracked-pointer parameter; binary connectives and quantifiers fully parenthesised.
pub fn ir_formula(
    spec: &crate::ir::Spec,
    f: &crate::ir::Formula,
    roles: &[String],
    vars: &[String],
    ptr: Option<&str>,
) -> String {
    use crate::ir::{Formula as F, Rel};
    let go = |x: &F| ir_formula(spec, x, roles, vars, ptr);
    let v = |i: &usize| vars.get(*i).cloned().unwrap_or_else(|| format!("v{i}"));
    let rl = |rs: &[usize]| {
        rs.iter()
            .map(|r| roles[*r].clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match f {
        F::True => "true".into(),
        F::False => "false".into(),
        F::Eq(a, b) => format!("{} == {}", v(a), v(b)),
        F::Field(r, a, b) => format!("{}({}, {})", roles[*r], v(a), v(b)),
        F::Pointer(a) => format!("{}({})", ptr.unwrap_or("x"), v(a)),
        F::Summary(a) => format!("sm({})", v(a)),
        F::Pred(p, rs, args) => {
            let args: Vec<String> = args.iter().map(v).collect();
            format!(
                "{}[{}]({})",
                spec.predicates[p.0].name,
                rl(rs),
                args.join(", ")
            )
        }
        F::Closure {
            rel,
            reflexive,
            from,
            to,
        } => {
            let name = match rel {
                Rel::Field(r) => roles[*r].clone(),
                Rel::Pred(p, rs) => format!("{}[{}]", spec.predicates[p.0].name, rl(rs)),
            };
            format!(
                "{name}{}({}, {})",
                if *reflexive { "*" } else { "+" },
                v(from),
                v(to)
            )
        }
        F::Not(a) => match &**a {
            F::Eq(x, y) => format!("{} != {}", v(x), v(y)),
            _ => format!("!{}", go(a)),
        },
        F::And(a, b) => format!("({} && {})", go(a), go(b)),
        F::Or(a, b) => format!("({} || {})", go(a), go(b)),
        F::Implies(a, b) => format!("({} -> {})", go(a), go(b)),
        F::Iff(a, b) => format!("({} <-> {})", go(a), go(b)),
        F::Exists(x, b) => format!("(exists {}. {})", v(x), go(b)),
        F::Forall(x, b) => format!("(forall {}. {})", v(x), go(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse;

    /// The body of the first declaration of `text`, printed.
    fn body(text: &str) -> String {
        match &parse(text).expect("parses").items[0] {
            Item::Predicate(p) => formula(&p.body),
            Item::Invariant(i) => formula(&i.body),
            Item::PredFamily(f) => formula(&f.body),
            Item::Structure(_) | Item::Template(_) | Item::Contract(_) | Item::Spatial(_) => {
                panic!("no formula")
            }
        }
    }

    #[test]
    fn formulas_are_fully_parenthesised() {
        let cases = [
            ("true", "true"),
            ("!false", "!false"),
            ("v == w", "v == w"),
            ("v != w", "v != w"),
            ("!(v == w)", "!(v == w)"),
            ("!!f(v, w)", "!!f(v, w)"),
            ("f+(v, w) && g*(w, v)", "(f+(v, w) && g*(w, v))"),
            ("a(v) && b(v) && c(v)", "((a(v) && b(v)) && c(v))"),
            ("a(v) || b(v) && c(v)", "(a(v) || (b(v) && c(v)))"),
            ("a(v) -> b(v) -> c(v)", "(a(v) -> (b(v) -> c(v)))"),
            ("a(v) <-> b(v) <-> c(v)", "((a(v) <-> b(v)) <-> c(v))"),
            ("p[f, g](v) || p[](v)", "(p[f, g](v) || p[](v))"),
            ("d[l, r]+(v, w)", "d[l, r]+(v, w)"),
            (
                "forall u, w. exists z. f(u, z)",
                "(forall u, w. (exists z. f(u, z)))",
            ),
            ("!(forall u. f(u, u))", "!(forall u. f(u, u))"),
            ("!(a(v) && b(v))", "!(a(v) && b(v))"),
        ];
        for (src, want) in cases {
            assert_eq!(body(&format!("invariant i[f] := {src};")), want, "{src}");
        }
    }

    #[test]
    fn declarations_in_canonical_layout() {
        let text = "predicate reach [f] <x> (v) := exists u . x(u) && f*(u, v) ;\n\
                    invariant i[f,b]:=true;\n\
                    structure s[f, b] refines t[f], u[b] {\n\
                    family a = p[f] ; invariant i[f, b];\n\
                    abstract a; family b = p[b], q[f, b] requires a;\n\
                    invariant j[b];\n}\n\
                    structure t[f] { }\n";
        let want = "predicate reach[f]<x>(v) := (exists u. (x(u) && f*(u, v)));\n\
                    \n\
                    invariant i[f, b] := true;\n\
                    \n\
                    structure s[f, b] refines t[f], u[b] {\n\
                    \x20 invariant i[f, b], j[b];\n\
                    \x20 family a = p[f];\n\
                    \x20 family b = p[b], q[f, b] requires a;\n\
                    \x20 abstract a;\n\
                    }\n\
                    \n\
                    structure t[f] {\n\
                    }\n";
        assert_eq!(print(&parse(text).expect("parses")), want);
    }

    #[test]
    fn show_ir_reports_predicates_structures_and_the_lattice() {
        let spec = crate::load(
            "predicate c[f](v) := f+(v, v) && !(exists w. w != v && sm(w));\n\
             predicate r[f]<x>(v) := exists u. x(u) && f*(u, v);\n\
             invariant i[f] := forall v. !c[f](v);\n\
             structure s[f] { invariant i[f]; family a = r[f]; family b = c[f] requires a; }\n\
             structure t[f, g] refines s[g] {\n\
             family a = r[g]; family b = c[g] requires a; family k = c[f]; abstract k; }\n",
        )
        .expect("checks");
        let want = "predicates:\n\
            \x20 c[f](v) := (f+(v, v) && !(exists w. (w != v && sm(w))))\n\
            \x20 r[f]<x>(v) := (exists u. (x(u) && f*(u, v)))\n\
            invariants:\n\
            \x20 i[f] := (forall v. !c[f](v))\n\
            structures:\n\
            \x20 s[f]\n\
            \x20   invariant i[f]\n\
            \x20   family a = r[f]\n\
            \x20   family b = c[f] (requires a)\n\
            \x20   generators (3, coarsest first): {}, {a}, {a, b}\n\
            \x20 t[f, g]\n\
            \x20   refines s[g]\n\
            \x20   family a = r[g]\n\
            \x20   family b = c[g] (requires a)\n\
            \x20   family k = c[f] [abstraction]\n\
            \x20   generators (6, coarsest first): {}, {a}, {k}, {a, b}, {a, k}, {a, b, k}\n\
            lattice (⊑ is `refines`: finer below coarser; m0, with no predicates, is above every generator):\n\
            \x20 t ⊑ s\n";
        assert_eq!(show_ir(&spec), want);
    }
}
