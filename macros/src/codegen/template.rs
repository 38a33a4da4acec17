//! The `template` declarations (seed 002's template engine): a checked [`Template`] in, data
//! out: a static `TemplateEntry` row of `COMPILED.templates` (kind, scopes and linear terms as
//! constants) and the template's IR as a constructor expression for `spec()`. Both are data;
//! nothing is computed at run time but building the IR once.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use shapecheck_dsl::ir::{Materialise, PathSensitivity, Row, RowKind, Scope, Template};

/// The path of the IR module in the table (absolute), or nothing inside `spec()` (where
/// `::shapecheck_dsl::ir::*` is imported).
fn ir_path(absolute: bool) -> TokenStream {
    match absolute {
        true => quote!(::shapecheck_dsl::ir::),
        false => quote!(),
    }
}

/// `Materialise::...`.
fn objects(m: Materialise, absolute: bool) -> TokenStream {
    let ir = ir_path(absolute);
    match m {
        Materialise::Auto => quote!(#ir Materialise::Auto),
        Materialise::Fixed(n) => {
            let n = Literal::u32_unsuffixed(n);
            quote!(#ir Materialise::Fixed(#n))
        }
    }
}

/// `PathSensitivity::...`.
fn paths(p: PathSensitivity, absolute: bool) -> TokenStream {
    let ir = ir_path(absolute);
    match p {
        PathSensitivity::None => quote!(#ir PathSensitivity::None),
        PathSensitivity::Loops => quote!(#ir PathSensitivity::Loops),
        PathSensitivity::Branches => quote!(#ir PathSensitivity::Branches),
    }
}

/// `Scope::...` for each scope.
fn scopes(over: &[Scope], absolute: bool) -> impl Iterator<Item = TokenStream> + '_ {
    let ir = ir_path(absolute);
    over.iter().map(move |s| match s {
        Scope::Vars => quote!(#ir Scope::Vars),
        Scope::Fields => quote!(#ir Scope::Fields),
    })
}

/// A linear term's coefficient, unsuffixed.
fn coef(c: i64) -> Literal {
    Literal::i64_unsuffixed(c)
}

/// One `TemplateEntry` per template, in IR order, as a slice expression.
pub fn table(templates: &[Template]) -> TokenStream {
    let entries = templates.iter().map(|t| {
        let (name, objects, paths) = (&t.name, objects(t.objects, true), paths(t.paths, true));
        let rows = t.rows.iter().map(row_entry);
        quote! {
            ::shapecheck_dsl::compiled::TemplateEntry {
                name: #name,
                objects: #objects,
                paths: #paths,
                rows: &[#(#rows),*],
            }
        }
    });
    quote!(&[#(#entries),*])
}

fn row_entry(r: &Row) -> TokenStream {
    let k = quote!(::shapecheck_dsl::compiled::RowKindEntry);
    let kind = match &r.kind {
        RowKind::PointsTo => quote!(#k::PointsTo),
        RowKind::Interval => quote!(#k::Interval),
        RowKind::Zone => quote!(#k::Zone),
        RowKind::Octagon => quote!(#k::Octagon),
        RowKind::Linear(terms) => {
            let terms = terms.iter().map(|(c, n)| {
                let c = coef(*c);
                quote!((#c, #n))
            });
            quote!(#k::Linear(&[#(#terms),*]))
        }
    };
    let over = scopes(&r.over, true);
    quote!(::shapecheck_dsl::compiled::RowEntry { kind: #kind, over: &[#(#over),*] })
}

/// A template as an IR constructor expression (inside `spec()`, whose builders are in scope).
pub fn ir(t: &Template) -> TokenStream {
    let (name, objects, paths) = (&t.name, objects(t.objects, false), paths(t.paths, false));
    let rows = t.rows.iter().map(|r| {
        let kind = match &r.kind {
            RowKind::PointsTo => quote!(RowKind::PointsTo),
            RowKind::Interval => quote!(RowKind::Interval),
            RowKind::Zone => quote!(RowKind::Zone),
            RowKind::Octagon => quote!(RowKind::Octagon),
            RowKind::Linear(terms) => {
                let terms = terms.iter().map(|(c, n)| {
                    let c = coef(*c);
                    quote!((#c, s(#n)))
                });
                quote!(RowKind::Linear(::std::vec![#(#terms),*]))
            }
        };
        let over = scopes(&r.over, false);
        quote!(Row { kind: #kind, over: ::std::vec![#(#over),*] })
    });
    quote! {
        Template {
            name: s(#name),
            objects: #objects,
            paths: #paths,
            rows: ::std::vec![#(#rows),*],
        }
    }
}
