//! The `spatial` declarations (seed 001's separation-logic engine) as data: each [`Spatial`]
//! of the IR as a constructor expression of the same value, for `spec()`. A domain carries no
//! algorithm: the engine implements the parameter kinds, unfolding and folding, and reads the
//! kinds, the lemma, the rules and the symbol kinds declared here.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use shapecheck_dsl::ir::{
    AbstractionRule, Lemma, ListParam, ParamKind, Piece, Spatial, SymbolKind,
};

/// A spatial domain as a constructor expression (inside `spec()`, whose builders are in scope).
pub fn ir(d: &Spatial) -> TokenStream {
    let (name, list) = (&d.name, &d.list.name);
    let symbols = d.symbols.iter().map(|k| symbol(*k));
    let params = d.list.params.iter().map(param);
    let lemmas = d.lemmas.iter().map(|l| match l {
        Lemma::Compose => quote!(Lemma::Compose),
    });
    let rules = d.rules.iter().map(rule);
    quote! {
        Spatial {
            name: s(#name),
            symbols: ::std::vec![#(#symbols),*],
            list: ListPredicate { name: s(#list), params: ::std::vec![#(#params),*] },
            lemmas: ::std::vec![#(#lemmas),*],
            rules: ::std::vec![#(#rules),*],
        }
    }
}

fn symbol(k: SymbolKind) -> TokenStream {
    match k {
        SymbolKind::Values => quote!(SymbolKind::Values),
        SymbolKind::Addresses => quote!(SymbolKind::Addresses),
    }
}

fn param(p: &ListParam) -> TokenStream {
    let name = &p.name;
    let kind = match p.kind {
        ParamKind::Multiset => quote!(ParamKind::Multiset),
        ParamKind::Counts => quote!(ParamKind::Counts),
        ParamKind::Interval => quote!(ParamKind::Interval),
        ParamKind::Length(n) => {
            let n = Literal::u32_unsuffixed(n);
            quote!(ParamKind::Length(#n))
        }
    };
    quote!(ListParam { name: s(#name), kind: #kind })
}

fn piece(p: Piece) -> TokenStream {
    match p {
        Piece::Cell => quote!(Piece::Cell),
        Piece::List => quote!(Piece::List),
    }
}

fn rule(r: &AbstractionRule) -> TokenStream {
    let (name, untracked, distinct) = (&r.name, r.untracked, r.distinct);
    let (first, second) = (piece(r.first), piece(r.second));
    quote! {
        AbstractionRule {
            name: s(#name), first: #first, second: #second, untracked: #untracked,
            distinct: #distinct
        }
    }
}

#[cfg(test)]
mod tests {
    /// The expression names every part of the domain, in IR order.
    #[test]
    fn a_domain_is_one_constructor_expression() {
        let spec = shapecheck_dsl::load(
            "spatial d { symbols addresses, values;
               list seg(a, b; N: length(3)) := a == b && N == 0
                 | a |-> (n, v) * seg(n, b; N1) && N <= N1 + 1;
               abstract c: a |-> (b, v) * seg(b, c) -> seg(a, c) when fresh(b), a !in T; }",
        )
        .expect("checks");
        let text = super::ir(&spec.spatial[0]).to_string();
        for part in [
            "SymbolKind :: Values , SymbolKind :: Addresses",
            "ParamKind :: Length (3)",
            "lemmas : :: std :: vec ! []",
            "first : Piece :: Cell , second : Piece :: List , untracked : true , distinct : false",
        ] {
            assert!(text.contains(part), "{part} in {text}");
        }
    }
}
