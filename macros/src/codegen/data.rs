//! The IR as data: `pub fn spec()` returns the checked spec, rebuilt once from constructor
//! expressions (formulas as `Formula` trees, for SMT encodings and TVLA's coerce and focus).

use super::text::lit;
use proc_macro2::TokenStream;
use quote::quote;
use shapecheck_dsl::ir::*;

/// `pub fn spec() -> &'static Spec`, built on first use.
pub fn spec_fn(spec: &Spec) -> TokenStream {
    let preds = spec.predicates.iter().map(predicate);
    let invs = spec.invariants.iter().map(invariant);
    let structs = spec.structures.iter().map(structure);
    let templates = spec.templates.iter().map(super::template::ir);
    let families = spec.families.iter().map(super::contract::family);
    let contracts = spec.contracts.iter().map(super::contract::ir);
    let spatial = spec.spatial.iter().map(super::spatial::ir);
    quote! {
        /// The checked spec these items were compiled from, as data: every formula as a
        /// `Formula` tree, every structure with its families and refinements, every template,
        /// predicate family, contract and spatial domain.
        pub fn spec() -> &'static ::shapecheck_dsl::ir::Spec {
            static SPEC: ::std::sync::LazyLock<::shapecheck_dsl::ir::Spec> =
                ::std::sync::LazyLock::new(|| {
                    use ::shapecheck_dsl::__private::build::*;
                    use ::shapecheck_dsl::ir::*;
                    Spec {
                        predicates: ::std::vec![#(#preds),*],
                        invariants: ::std::vec![#(#invs),*],
                        structures: ::std::vec![#(#structs),*],
                        templates: ::std::vec![#(#templates),*],
                        families: ::std::vec![#(#families),*],
                        contracts: ::std::vec![#(#contracts),*],
                        spatial: ::std::vec![#(#spatial),*],
                    }
                });
            &SPEC
        }
    }
}

fn strings(v: &[String]) -> TokenStream {
    quote!(strs(&[#(#v),*]))
}

fn indices(v: &[usize]) -> TokenStream {
    let v = v.iter().map(|i| lit(*i));
    quote!(::std::vec![#(#v),*])
}

fn predicate(p: &Predicate) -> TokenStream {
    let (name, roles, vars) = (&p.name, strings(&p.roles), strings(&p.var_names));
    let pointer = match &p.pointer {
        Some(x) => quote!(::core::option::Option::Some(s(#x))),
        None => quote!(::core::option::Option::None),
    };
    let (arity, slots, body) = (lit(p.arity), lit(p.slots), formula(&p.body));
    quote! {
        Predicate {
            name: s(#name),
            roles: #roles,
            pointer: #pointer,
            arity: #arity,
            slots: #slots,
            var_names: #vars,
            body: #body,
        }
    }
}

fn invariant(i: &Invariant) -> TokenStream {
    let (name, roles, vars) = (&i.name, strings(&i.roles), strings(&i.var_names));
    let (slots, body) = (lit(i.slots), formula(&i.body));
    quote! {
        Invariant { name: s(#name), roles: #roles, slots: #slots, var_names: #vars, body: #body }
    }
}

fn structure(st: &Structure) -> TokenStream {
    let (name, roles) = (&st.name, strings(&st.roles));
    let invs = st.invariants.iter().map(|u| {
        let (inv, roles) = (lit(u.inv.0), indices(&u.roles));
        quote!(InvUse { inv: InvId(#inv), roles: #roles })
    });
    let families = st.families.iter().map(family);
    let refines = st.refines.iter().map(|r| {
        let (coarser, roles) = (lit(r.coarser.0), indices(&r.roles));
        quote!(Refinement { coarser: StructId(#coarser), roles: #roles })
    });
    quote! {
        Structure {
            name: s(#name),
            roles: #roles,
            invariants: ::std::vec![#(#invs),*],
            families: ::std::vec![#(#families),*],
            refines: ::std::vec![#(#refines),*],
        }
    }
}

fn family(f: &Family) -> TokenStream {
    let (name, requires, abstraction) = (&f.name, indices(&f.requires), f.abstraction);
    let preds = f.preds.iter().map(|u| {
        let (pred, roles) = (lit(u.pred.0), indices(&u.roles));
        quote!(PredUse { pred: PredId(#pred), roles: #roles })
    });
    quote! {
        Family {
            name: s(#name),
            preds: ::std::vec![#(#preds),*],
            requires: #requires,
            abstraction: #abstraction,
        }
    }
}

/// A formula as a constructor expression.
fn formula(f: &Formula) -> TokenStream {
    let (l, g) = (|i: &usize| lit(*i), formula);
    match f {
        Formula::True => quote!(Formula::True),
        Formula::False => quote!(Formula::False),
        Formula::Eq(a, b) => {
            let (a, b) = (l(a), l(b));
            quote!(Formula::Eq(#a, #b))
        }
        Formula::Field(r, a, b) => {
            let (r, a, b) = (l(r), l(a), l(b));
            quote!(Formula::Field(#r, #a, #b))
        }
        Formula::Pointer(a) => {
            let a = l(a);
            quote!(Formula::Pointer(#a))
        }
        Formula::Summary(a) => {
            let a = l(a);
            quote!(Formula::Summary(#a))
        }
        Formula::Pred(p, roles, args) => {
            let (p, roles, args) = (l(&p.0), indices(roles), indices(args));
            quote!(Formula::Pred(PredId(#p), #roles, #args))
        }
        Formula::Closure {
            rel,
            reflexive,
            from,
            to,
        } => {
            let rel = relation(rel);
            let (from, to) = (l(from), l(to));
            quote!(Formula::Closure { rel: #rel, reflexive: #reflexive, from: #from, to: #to })
        }
        Formula::Not(a) => {
            let a = g(a);
            quote!(not(#a))
        }
        Formula::And(a, b) => binary(quote!(and), a, b),
        Formula::Or(a, b) => binary(quote!(or), a, b),
        Formula::Implies(a, b) => binary(quote!(implies), a, b),
        Formula::Iff(a, b) => binary(quote!(iff), a, b),
        Formula::Exists(v, body) => {
            let (v, body) = (l(v), g(body));
            quote!(exists(#v, #body))
        }
        Formula::Forall(v, body) => {
            let (v, body) = (l(v), g(body));
            quote!(forall(#v, #body))
        }
    }
}

fn binary(op: TokenStream, a: &Formula, b: &Formula) -> TokenStream {
    let (a, b) = (formula(a), formula(b));
    quote!(#op(#a, #b))
}

fn relation(rel: &Rel) -> TokenStream {
    match rel {
        Rel::Field(r) => {
            let r = lit(*r);
            quote!(Rel::Field(#r))
        }
        Rel::Pred(p, roles) => {
            let (p, roles) = (lit(p.0), indices(roles));
            quote!(Rel::Pred(PredId(#p), #roles))
        }
    }
}
