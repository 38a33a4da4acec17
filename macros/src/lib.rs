//! `spec!`: compiles `.shape` spec files into typed Rust at the call site.
//!
//! This crate is a thin shim: it reads the files named in the call (relative to the calling
//! crate's root, `CARGO_MANIFEST_DIR`), runs the front end (`shapecheck_dsl::load_all`), and
//! either reports the diagnostics as `compile_error!` at the call or hands the checked IR to
//! the generator (module `codegen`), which cannot fail. Every file read is tracked with
//! `include_str!`, so cargo rebuilds the caller when a spec changes.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod codegen;

use proc_macro2::TokenStream;
use quote::quote;
use shapecheck_dsl::Diagnostic;
use shapecheck_dsl::ast::Span;
use shapecheck_dsl::diag::line_col;
use std::path::PathBuf;
use syn::punctuated::Punctuated;
use syn::{LitStr, Token};

/// Compiles spec files (paths relative to the crate root, read as one spec in order) into
/// items at the call site:
///
/// - `pub fn spec() -> &'static shapecheck_dsl::ir::Spec`: the checked IR as data (the
///   spec's `family`, `contract` and `spatial` declarations only there: `spec().families`,
///   `spec().contracts`, `spec().spatial`);
/// - `pub mod predicates`, `pub mod invariants`, `pub mod structures`: one zero-sized type per
///   declaration implementing `CompiledPredicate`, `CompiledInvariant` or `CompiledStructure`
///   (from `shapecheck_dsl::compiled`), named in CamelCase (`reach` becomes `Reach`);
/// - `pub static COMPILED: shapecheck_dsl::compiled::CompiledSpec`: all of them as tables, and
///   the spec's `template` declarations as static data (`COMPILED.templates`, one
///   `TemplateEntry` each: name, objects, paths, rows with their kinds, scopes and terms);
/// - `pub const SOURCES: &[(&str, &str)]`: each spec file as written in the call and its text
///   (so that a program can show it or load a user spec on top of it).
///
/// ```ignore
/// shapecheck_macros::spec!("specs/predicates.shape", "specs/structures.shape");
/// ```
///
/// The calling crate must depend on `shapecheck-dsl`.
#[proc_macro]
pub fn spec(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand(input.into()).into()
}

fn expand(input: TokenStream) -> TokenStream {
    let paths = match parse_paths(input) {
        Ok(paths) => paths,
        Err(e) => return e.to_compile_error(),
    };
    let mut files = Vec::new();
    for lit in &paths {
        match read(lit) {
            Ok(file) => files.push(file),
            Err(e) => return e.to_compile_error(),
        }
    }
    let sources = files.iter().map(|f| {
        let full = f.full.to_string_lossy().into_owned();
        let name = &f.name;
        quote! { (#name, ::core::include_str!(#full)) }
    });
    let tracking = quote! {
        /// The spec files, as named in the `spec!` call, and their texts.
        pub const SOURCES: &[(&str, &str)] = &[#(#sources),*];
    };
    let texts: Vec<&str> = files.iter().map(|f| f.text.as_str()).collect();
    let body = match shapecheck_dsl::load_all(&texts) {
        Ok(spec) => codegen::generate(&spec),
        Err(diags) => {
            let message = render(&diags, &files);
            quote! { ::core::compile_error! { #message } }
        }
    };
    quote! { #tracking #body }
}

/// `"a.shape", "b.shape"`: at least one string literal, comma-separated.
fn parse_paths(input: TokenStream) -> syn::Result<Vec<LitStr>> {
    use syn::parse::Parser;
    let paths = Punctuated::<LitStr, Token![,]>::parse_terminated.parse2(input)?;
    if paths.is_empty() {
        let hint = "expected spec file paths, e.g. `spec!(\"specs/lists.shape\")`";
        return Err(syn::Error::new(proc_macro2::Span::call_site(), hint));
    }
    Ok(paths.into_iter().collect())
}

/// A spec file read: the path as written, where it was found, and its text.
struct File {
    name: String,
    full: PathBuf,
    text: String,
}

fn read(lit: &LitStr) -> syn::Result<File> {
    let name = lit.value();
    let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let full = PathBuf::from(root).join(&name);
    let bytes = std::fs::read(&full).map_err(|e| {
        let hint = "(paths are relative to the crate root)";
        syn::Error::new(
            lit.span(),
            format!("cannot read spec file `{name}`: {e} {hint}"),
        )
    })?;
    match shapecheck_dsl::diag::decode(&name, &bytes) {
        Ok(text) => Ok(File {
            text: text.to_string(),
            name,
            full,
        }),
        Err(rendered) => Err(syn::Error::new(lit.span(), rendered)),
    }
}

/// Renders diagnostics of the joined text (`load_all` joins files with a newline) against
/// the file each one falls in.
fn render(diags: &[Diagnostic], files: &[File]) -> String {
    let starts: Vec<usize> = (files.iter())
        .scan(0, |offset, f| {
            let start = *offset;
            *offset += f.text.len() + 1;
            Some(start)
        })
        .collect();
    let rendered: Vec<String> = (diags.iter())
        .map(|d| {
            let (i, local) = localize(d, files, &starts);
            local.render(&files[i].name, &files[i].text)
        })
        .collect();
    rendered.join("\n")
}

/// The file `d` falls in, and `d` with its spans relative to that file; secondary spans in
/// other files become notes naming their place.
fn localize(d: &Diagnostic, files: &[File], starts: &[usize]) -> (usize, Diagnostic) {
    let file_of = |at: usize| starts.iter().rposition(|s| *s <= at).unwrap_or(0);
    let shift = |s: Span, by: usize| Span {
        start: s.start.saturating_sub(by),
        end: s.end.saturating_sub(by),
    };
    let i = file_of(d.primary.start);
    let mut local = Diagnostic {
        primary: shift(d.primary, starts[i]),
        secondary: Vec::new(),
        ..d.clone()
    };
    for (span, label) in &d.secondary {
        let j = file_of(span.start);
        if j == i {
            local
                .secondary
                .push((shift(*span, starts[i]), label.clone()));
        } else {
            let (l, c) = line_col(&files[j].text, span.start - starts[j]);
            let place = format!("{label}: {}:{l}:{c}", files[j].name);
            local.notes.push(place);
        }
    }
    (i, local)
}

#[cfg(test)]
mod tests {
    use super::expand;
    use quote::quote;

    /// The expansion of `spec!` on a file holding `bytes` (written under the temp folder).
    fn expand_file(name: &str, bytes: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!("shapecheck-macros-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("writable");
        let lit = path.to_string_lossy().into_owned();
        expand(quote! { #lit }).to_string()
    }

    #[test]
    fn too_deep_a_formula_is_a_compile_error_not_a_crash() {
        let text = format!("predicate p[f](v) := {}f(v, v);\n", "!(".repeat(20_000));
        let out = expand_file("deep.shape", text.as_bytes());
        assert!(out.contains("compile_error"), "{out}");
        let at = "deep.shape:1:278: error: nesting deeper than 128 levels (connectives";
        assert!(out.contains(at), "{out}");
    }

    #[test]
    fn a_spec_that_is_not_utf8_is_a_compile_error_at_its_byte() {
        let out = expand_file("latin1.shape", b"// caf\xe9\npredicate p[f](v) := true;\n");
        assert!(out.contains("compile_error"), "{out}");
        assert!(
            out.contains("latin1.shape:1:7: error: invalid UTF-8 (byte 0xe9)"),
            "{out}"
        );
    }
}
