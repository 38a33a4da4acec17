//! One item per declaration: a zero-sized type, its compiled bodies (two- and three-valued,
//! as inherent functions other items call directly), and its `shapecheck_dsl::compiled` trait
//! impl with its constants and tables.

use super::Names;
use super::formula::{Mode, compile, uses, uses_var};
use super::text::{self, lit, var};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use shapecheck_dsl::ir::{Formula, Spec, StructId, Structure};
use shapecheck_dsl::lattice;

/// `fn body2(c, fields, v0, ...) -> bool` (or `body3`): the compiled formula; parameters it
/// does not use are named with a leading underscore. Formulas are compiled as written, so
/// clippy's advice on Boolean expressions (`!a == b`, `false || x`) is for the spec's author.
fn body_fn(m: Mode, f: &Formula, arity: usize, names: &Names) -> TokenStream {
    let u = uses(f);
    let c = if u.ctx { quote!(c) } else { quote!(_c) };
    let (fields, fields_ty) = match (m, u.fields) {
        (Mode::Two, true) => (quote!(fields), quote!(&[&str])),
        (Mode::Two, false) => (quote!(_fields), quote!(&[&str])),
        (Mode::Three, true) => (quote!(roles), quote!(&[usize])),
        (Mode::Three, false) => (quote!(_roles), quote!(&[usize])),
    };
    let params = (0..arity).map(|v| match uses_var(f, v) {
        true => var(v),
        false => format_ident!("_v{v}"),
    });
    let (name, ctx, value) = (m.body(), m.ctx(), m.value());
    let code = compile(f, m, names);
    quote! {
        #[allow(clippy::nonminimal_bool, clippy::eq_op, clippy::overly_complex_bool_expr)]
        pub(super) fn #name(#c: &#ctx, #fields: #fields_ty, #(#params: usize),*) -> #value {
            #code
        }
    }
}

/// `#[doc]` attributes, one per line of `text`.
fn docs(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| match l {
        "" => String::new(),
        l => format!(" {l}"),
    });
    quote!(#(#[doc = #lines])*)
}

/// `Option<&'static str>` literal.
fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// The public `eval2`/`eval3` of a predicate: unpack the arguments, build a context, call the
/// body.
fn predicate_evals(arity: usize) -> TokenStream {
    let params: Vec<Ident> = (0..arity).map(var).collect();
    let n = lit(arity);
    let unpack = quote! {
        let [#(#params),*] = ::shapecheck_dsl::__private::args::<#n>(args, Self::NAME);
    };
    quote! {
        fn eval2(
            heap: &::shapecheck_dsl::eval::ExplicitHeap,
            fields: &[&str],
            pointer: ::core::option::Option<&str>,
            args: &[usize],
        ) -> bool {
            #unpack
            let c = ::shapecheck_dsl::__private::Ctx2::new(heap, pointer);
            Self::body2(&c, fields, #(#params),*)
        }
        fn eval3(
            c: &dyn ::shapecheck_dsl::sem::Sem3,
            roles: &[usize],
            args: &[usize],
        ) -> ::shapecheck_dsl::eval::Kleene {
            #unpack
            Self::body3(c, roles, #(#params),*)
        }
    }
}

/// Predicate `i`.
pub fn predicate(spec: &Spec, names: &Names, i: usize) -> TokenStream {
    let p = &spec.predicates[i];
    let ty = &names.preds[i];
    let doc = docs(&text::predicate_doc(spec, p));
    let body2 = body_fn(Mode::Two, &p.body, p.arity, names);
    let body3 = body_fn(Mode::Three, &p.body, p.arity, names);
    let (name, roles, id, arity) = (&p.name, &p.roles, lit(i), lit(p.arity));
    let pointer = option_str(p.pointer.as_deref());
    let evals = predicate_evals(p.arity);
    quote! {
        #doc
        pub struct #ty;
        impl #ty { #body2 #body3 }
        impl ::shapecheck_dsl::compiled::CompiledPredicate for #ty {
            const NAME: &'static str = #name;
            const ID: ::shapecheck_dsl::ir::PredId = ::shapecheck_dsl::ir::PredId(#id);
            const ROLES: &'static [&'static str] = &[#(#roles),*];
            const POINTER: ::core::option::Option<&'static str> = #pointer;
            const ARITY: usize = #arity;
            fn decl() -> &'static ::shapecheck_dsl::ir::Predicate {
                &super::spec().predicates[#id]
            }
            #evals
        }
    }
}

/// Invariant `i`.
pub fn invariant(spec: &Spec, names: &Names, i: usize) -> TokenStream {
    let inv = &spec.invariants[i];
    let ty = &names.invs[i];
    let doc = docs(&text::invariant_doc(spec, inv));
    let body2 = body_fn(Mode::Two, &inv.body, 0, names);
    let body3 = body_fn(Mode::Three, &inv.body, 0, names);
    let (name, roles, id) = (&inv.name, &inv.roles, lit(i));
    quote! {
        #doc
        pub struct #ty;
        impl #ty { #body2 #body3 }
        impl ::shapecheck_dsl::compiled::CompiledInvariant for #ty {
            const NAME: &'static str = #name;
            const ID: ::shapecheck_dsl::ir::InvId = ::shapecheck_dsl::ir::InvId(#id);
            const ROLES: &'static [&'static str] = &[#(#roles),*];
            fn decl() -> &'static ::shapecheck_dsl::ir::Invariant {
                &super::spec().invariants[#id]
            }
            fn eval2(heap: &::shapecheck_dsl::eval::ExplicitHeap, fields: &[&str]) -> bool {
                Self::body2(&::shapecheck_dsl::__private::Ctx2::new(heap, ::core::option::Option::None), fields)
            }
            fn eval3(
                c: &dyn ::shapecheck_dsl::sem::Sem3,
                roles: &[usize],
            ) -> ::shapecheck_dsl::eval::Kleene {
                Self::body3(c, roles)
            }
        }
    }
}

/// Structure `i`: its invariants and its table of generators.
pub fn structure(spec: &Spec, names: &Names, i: usize) -> TokenStream {
    let st = &spec.structures[i];
    let ty = &names.structs[i];
    let doc = docs(&text::structure_doc(spec, st));
    let (name, roles, id) = (&st.name, &st.roles, lit(i));
    let families = st.families.iter().map(|f| &f.name);
    let generators = lattice::generators(spec, StructId(i)).into_iter().map(|g| {
        let fams = g.families.into_iter().map(lit);
        quote!(&[#(#fams),*])
    });
    let hold2 = invariants_fn(Mode::Two, st, names);
    let hold3 = invariants_fn(Mode::Three, st, names);
    quote! {
        #doc
        pub struct #ty;
        impl ::shapecheck_dsl::compiled::CompiledStructure for #ty {
            const NAME: &'static str = #name;
            const ID: ::shapecheck_dsl::ir::StructId = ::shapecheck_dsl::ir::StructId(#id);
            const ROLES: &'static [&'static str] = &[#(#roles),*];
            const FAMILIES: &'static [&'static str] = &[#(#families),*];
            const GENERATORS: &'static [&'static [usize]] = &[#(#generators),*];
            fn decl() -> &'static ::shapecheck_dsl::ir::Structure {
                &super::spec().structures[#id]
            }
            #hold2
            #hold3
        }
    }
}

/// `invariants_hold` (two-valued) or `invariants3`: the conjunction of the structure's
/// invariants, roles mapped.
fn invariants_fn(m: Mode, st: &Structure, names: &Names) -> TokenStream {
    let (value, body) = (m.value(), m.body());
    let calls: Vec<TokenStream> = st
        .invariants
        .iter()
        .map(|u| {
            let ty = &names.invs[u.inv.0];
            let roles = u.roles.iter().map(|r| lit(*r));
            match m {
                Mode::Two => quote!(super::invariants::#ty::#body(&c, &[#(fields[#roles]),*])),
                Mode::Three => quote!(super::invariants::#ty::#body(c, &[#(roles[#roles]),*])),
            }
        })
        .collect();
    match m {
        Mode::Two => {
            let all = calls.into_iter().reduce(|a, b| quote!(#a && #b));
            match all {
                None => quote!(
                    fn invariants_hold(
                        _: &::shapecheck_dsl::eval::ExplicitHeap,
                        _: &[&str],
                    ) -> bool {
                        true
                    }
                ),
                Some(all) => quote! {
                    fn invariants_hold(heap: &::shapecheck_dsl::eval::ExplicitHeap, fields: &[&str]) -> #value {
                        let c = ::shapecheck_dsl::__private::Ctx2::new(heap, ::core::option::Option::None);
                        #all
                    }
                },
            }
        }
        Mode::Three => {
            let all = calls.into_iter().reduce(|a, b| quote!(#a.and(#b)));
            match all {
                None => {
                    quote!(fn invariants3(_: &dyn ::shapecheck_dsl::sem::Sem3, _: &[usize]) -> #value { ::shapecheck_dsl::eval::Kleene::True })
                }
                Some(all) => quote! {
                    fn invariants3(c: &dyn ::shapecheck_dsl::sem::Sem3, roles: &[usize]) -> #value {
                        #all
                    }
                },
            }
        }
    }
}
