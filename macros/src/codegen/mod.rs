//! The generator: a checked Spec IR in, Rust items out. It cannot fail: every check has run.
//!
//! The output holds types, trait impls and tables only; the algorithms (quantifiers,
//! closures, three-valued equality) are calls into `::shapecheck_dsl::__private`. Templates are
//! split per kind of item: [`data`] (the IR as constructor expressions), [`formula`] (a formula
//! as nested calls, two- or three-valued), [`items`] (predicates, invariants, structures),
//! [`template`] (the `template` declarations, as data only), [`contract`] (the `contract`
//! declarations, as data only), [`spatial`] (the `spatial` declarations, as data only), and
//! [`text`] (names and doc text).

mod contract;
mod data;
mod formula;
mod items;
mod spatial;
mod template;
mod text;

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use shapecheck_dsl::ir::Spec;

/// The type names of a spec's declarations, by kind and index.
pub struct Names {
    /// One per predicate.
    pub preds: Vec<Ident>,
    /// One per invariant.
    pub invs: Vec<Ident>,
    /// One per structure.
    pub structs: Vec<Ident>,
}

impl Names {
    fn new(spec: &Spec) -> Names {
        Names {
            preds: text::type_names(spec.predicates.iter().map(|p| p.name.as_str())),
            invs: text::type_names(spec.invariants.iter().map(|i| i.name.as_str())),
            structs: text::type_names(spec.structures.iter().map(|s| s.name.as_str())),
        }
    }
}

/// All items for `spec`.
pub fn generate(spec: &Spec) -> TokenStream {
    let names = Names::new(spec);
    let data = data::spec_fn(spec);
    let preds = (0..spec.predicates.len()).map(|i| items::predicate(spec, &names, i));
    let invs = (0..spec.invariants.len()).map(|i| items::invariant(spec, &names, i));
    let structs = (0..spec.structures.len()).map(|i| items::structure(spec, &names, i));
    let table = table(&names, template::table(&spec.templates));
    quote! {
        #data
        /// The compiled instrumentation predicates: one zero-sized type per predicate.
        pub mod predicates { #(#preds)* }
        /// The compiled explicit-heap invariants: one zero-sized type per invariant.
        pub mod invariants { #(#invs)* }
        /// The compiled data structures: one zero-sized type per structure.
        pub mod structures { #(#structs)* }
        #table
    }
}

/// `COMPILED`: every item as a table row, in IR order; `templates` is the templates' table.
fn table(names: &Names, templates: TokenStream) -> TokenStream {
    let (preds, invs, structs) = (&names.preds, &names.invs, &names.structs);
    quote! {
        /// Every compiled predicate, invariant, structure and template of the spec, as tables
        /// in IR order.
        pub static COMPILED: ::shapecheck_dsl::compiled::CompiledSpec =
            ::shapecheck_dsl::compiled::CompiledSpec {
                spec,
                predicates: &[#(
                    <predicates::#preds as ::shapecheck_dsl::compiled::CompiledPredicate>::ENTRY
                ),*],
                invariants: &[#(
                    <invariants::#invs as ::shapecheck_dsl::compiled::CompiledInvariant>::ENTRY
                ),*],
                structures: &[#(
                    <structures::#structs as ::shapecheck_dsl::compiled::CompiledStructure>::ENTRY
                ),*],
                templates: #templates,
            };
    }
}

#[cfg(test)]
mod tests {
    fn pretty(tokens: proc_macro2::TokenStream) -> String {
        let file = syn::parse2::<syn::File>(tokens).expect("generated code parses as a file");
        prettyplease::unparse(&file)
    }

    #[test]
    fn small_spec_golden() {
        let text = include_str!("../../tests/fixtures/small.shape");
        let spec = shapecheck_dsl::load(text).expect("fixture checks");
        insta::assert_snapshot!(pretty(super::generate(&spec)));
    }

    #[test]
    fn type_names_are_camel_case_unique_and_not_keywords() {
        let names = super::text::type_names(["reach", "down_star", "downStar", "self", "_1x", "_"]);
        let names: Vec<String> = names.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            names,
            ["Reach", "DownStar", "DownStar2", "Self_", "P1x", "P"]
        );
    }
}
