//! Names and text: Rust identifiers for spec names, literals, and the doc text of each
//! declaration (its formula printed back from the IR).

use proc_macro2::{Ident, Literal, Span};
use shapecheck_dsl::ir::{Invariant, Predicate, Spec, Structure};
use shapecheck_dsl::print::ir_formula;
use std::collections::BTreeSet;

/// CamelCase type names for spec names of one kind, made unique and never a keyword.
pub fn type_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Ident> {
    let mut used = BTreeSet::new();
    let mut out = Vec::new();
    for name in names {
        let base = camel(name);
        let mut candidate = base.clone();
        let mut n = 2;
        while !used.insert(candidate.clone()) {
            candidate = format!("{base}{n}");
            n += 1;
        }
        out.push(Ident::new(&candidate, Span::call_site()));
    }
    out
}

/// `down_star` to `DownStar`; a leading digit or nothing gets a `P`, `Self` an underscore.
fn camel(name: &str) -> String {
    let mut out: String = name
        .split('_')
        .map(|part| {
            let mut cs = part.chars();
            cs.next()
                .map(|c| c.to_ascii_uppercase().to_string() + cs.as_str())
                .unwrap_or_default()
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'P');
    }
    if out == "Self" {
        out.push('_');
    }
    out
}

/// An unsuffixed integer literal.
pub fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// The Rust variable of slot `v`.
pub fn var(v: usize) -> Ident {
    Ident::new(&format!("v{v}"), Span::call_site())
}

/// `predicate reach[f]<x>(v) := ...` for docs.
pub fn predicate_doc(spec: &Spec, p: &Predicate) -> String {
    let ptr = p
        .pointer
        .as_ref()
        .map(|x| format!("<{x}>"))
        .unwrap_or_default();
    let params = p.var_names[..p.arity].join(", ");
    format!(
        "`predicate {}[{}]{ptr}({params}) := {}`",
        p.name,
        p.roles.join(", "),
        ir_formula(spec, &p.body, &p.roles, &p.var_names, p.pointer.as_deref())
    )
}

/// `invariant acyclic[f] := ...` for docs.
pub fn invariant_doc(spec: &Spec, i: &Invariant) -> String {
    format!(
        "`invariant {}[{}] := {}`",
        i.name,
        i.roles.join(", "),
        ir_formula(spec, &i.body, &i.roles, &i.var_names, None)
    )
}

/// `structure dll[f, b] refines sll[f]`, then its invariants and families, for docs.
pub fn structure_doc(spec: &Spec, s: &Structure) -> String {
    let bind = |roles: &[usize]| -> String {
        let names: Vec<&str> = roles.iter().map(|r| s.roles[*r].as_str()).collect();
        names.join(", ")
    };
    let refines: Vec<String> = (s.refines.iter())
        .map(|r| format!("{}[{}]", spec.structures[r.coarser.0].name, bind(&r.roles)))
        .collect();
    let refines = match refines.is_empty() {
        true => String::new(),
        false => format!(" refines {}", refines.join(", ")),
    };
    let mut out = format!("`structure {}[{}]{refines}`\n", s.name, s.roles.join(", "));
    for u in &s.invariants {
        let name = &spec.invariants[u.inv.0].name;
        out += &format!("\n- invariant `{name}[{}]`", bind(&u.roles));
    }
    for f in &s.families {
        let preds: Vec<String> = (f.preds.iter())
            .map(|u| format!("{}[{}]", spec.predicates[u.pred.0].name, bind(&u.roles)))
            .collect();
        let requires: Vec<&str> = (f.requires.iter())
            .map(|r| s.families[*r].name.as_str())
            .collect();
        let requires = match requires.is_empty() {
            true => String::new(),
            false => format!(" requires {}", requires.join(", ")),
        };
        let kind = if f.abstraction {
            "abstract family"
        } else {
            "family"
        };
        out += &format!("\n- {kind} `{} = {}{requires}`", f.name, preds.join(", "));
    }
    out
}
