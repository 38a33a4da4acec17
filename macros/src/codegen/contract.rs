//! The `contract` and top-level `family` declarations as data: each [`Contract`] and
//! [`PredFamily`] of the IR as a constructor expression of the same value, for `spec()`.
//! They carry no algorithm: the engines read their formulas.

use proc_macro2::TokenStream;
use quote::quote;
use shapecheck_dsl::ir::{Assertion, CTerm, Contract, PathKind, PredFamily};

/// A contract as a constructor expression.
pub fn ir(c: &Contract) -> TokenStream {
    let (function, params) = (&c.function, strings(&c.params));
    let (ghosts, globals) = (strings(&c.ghosts), strings(&c.globals));
    let backbones = c.backbones.iter().map(|(b, fields)| {
        let fields = strings(fields);
        quote!((s(#b), #fields))
    });
    let requires = c.requires.iter().map(assertion);
    let ensures = c.ensures.iter().map(assertion);
    quote! {
        Contract {
            function: s(#function),
            params: #params,
            ghosts: #ghosts,
            globals: #globals,
            backbones: ::std::vec![#(#backbones),*],
            requires: ::std::vec![#(#requires),*],
            ensures: ::std::vec![#(#ensures),*],
        }
    }
}

/// A predicate family as a constructor expression.
pub fn family(f: &PredFamily) -> TokenStream {
    let (name, fields, level, data) = (&f.name, strings(&f.fields), f.level, f.orders_data);
    let params = f.params.iter().map(|(p, q)| quote!((s(#p), #q)));
    let body = assertion(&f.body);
    quote! {
        PredFamily {
            name: s(#name),
            fields: #fields,
            params: ::std::vec![#(#params),*],
            level: #level,
            orders_data: #data,
            body: #body,
        }
    }
}

fn strings(v: &[String]) -> TokenStream {
    quote!(strs(&[#(#v),*]))
}

fn term(t: &CTerm) -> TokenStream {
    match t {
        CTerm::Null => quote!(CTerm::Null),
        CTerm::Result => quote!(CTerm::Result),
        CTerm::Name(n) => quote!(CTerm::Name(s(#n))),
        CTerm::Bound(n) => quote!(CTerm::Bound(s(#n))),
    }
}

fn boxed(a: &Assertion) -> TokenStream {
    let a = assertion(a);
    quote!(::std::boxed::Box::new(#a))
}

/// A contract formula as a constructor expression.
fn assertion(a: &Assertion) -> TokenStream {
    match a {
        Assertion::Const(b) => quote!(Assertion::Const(#b)),
        Assertion::Eq(x, y) => {
            let (x, y) = (term(x), term(y));
            quote!(Assertion::Eq(#x, #y))
        }
        Assertion::Path {
            field,
            kind,
            from,
            to,
        } => {
            let kind = match kind {
                PathKind::Edge => quote!(PathKind::Edge),
                PathKind::Plus => quote!(PathKind::Plus),
                PathKind::Star => quote!(PathKind::Star),
            };
            let (from, to) = (term(from), term(to));
            quote!(Assertion::Path { field: s(#field), kind: #kind, from: #from, to: #to })
        }
        Assertion::Alloc(x) => {
            let x = term(x);
            quote!(Assertion::Alloc(#x))
        }
        Assertion::Dle(x, y) => {
            let (x, y) = (term(x), term(y));
            quote!(Assertion::Dle(#x, #y))
        }
        Assertion::Family { name, fields, args } => {
            let fields = strings(fields);
            let args = args.iter().map(term);
            quote!(Assertion::Family { name: s(#name), fields: #fields, args: ::std::vec![#(#args),*] })
        }
        Assertion::Not(x) => {
            let x = boxed(x);
            quote!(Assertion::Not(#x))
        }
        Assertion::And(x, y) => {
            let (x, y) = (boxed(x), boxed(y));
            quote!(Assertion::And(#x, #y))
        }
        Assertion::Or(x, y) => {
            let (x, y) = (boxed(x), boxed(y));
            quote!(Assertion::Or(#x, #y))
        }
        Assertion::Implies(x, y) => {
            let (x, y) = (boxed(x), boxed(y));
            quote!(Assertion::Implies(#x, #y))
        }
        Assertion::Iff(x, y) => {
            let (x, y) = (boxed(x), boxed(y));
            quote!(Assertion::Iff(#x, #y))
        }
        Assertion::Forall(vs, x) => {
            let (vs, x) = (strings(vs), boxed(x));
            quote!(Assertion::Forall(#vs, #x))
        }
        Assertion::Exists(vs, x) => {
            let (vs, x) = (strings(vs), boxed(x));
            quote!(Assertion::Exists(#vs, #x))
        }
    }
}
