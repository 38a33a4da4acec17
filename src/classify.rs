//! `shapecheck classify FILE.c`: which data structure each recursive struct type of a C program
//! builds, decided on explicit-heap samples (seed 000, `SCGsFromExplicit` of Algorithm 2).
//!
//! Consumes a C program and a spec (the standard library, or `--spec FILE.shape`, optionally
//! with the library added); produces, per recursive struct type, the samples used and every
//! structure of the spec whose invariants all hold on every sample, for each injective binding
//! of the struct's self-pointer fields to the structure's roles, with the refinement-minimal
//! (finest) ones marked and a best pick (a finest binding that uses the most fields). Output is
//! text or JSON. Exit code 0 when a classification was printed (possibly with no samples), 2 on
//! bad input (unreadable or malformed C file or spec) with an error on stderr.

use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use shapecheck_dsl::ir::{Spec, StructId};
use shapecheck_runtime::explicit::explore::Limits;
use shapecheck_runtime::explicit::sample::{self, Collection, Points, Sample, TypeSamples};
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::techniques::seed000::classify::{TypeReport, best, classify};
use shapecheck_runtime::techniques::seed000::lazy::Binding;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `shapecheck classify`.
#[derive(Args, Debug)]
pub struct ClassifyArgs {
    /// The C program (`.c` or preprocessed `.i`).
    pub file: PathBuf,
    /// Samples wanted per recursive struct type.
    #[arg(short = 'k', long = "samples", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub k: u32,
    /// Minimum number of nodes of a sample.
    #[arg(short = 'd', long = "min-nodes", default_value_t = 4)]
    pub d: u32,
    /// Time limit of the exploration in seconds; what was sampled by then is used.
    #[arg(long, value_parser = crate::parse_seconds, default_value = "10")]
    pub timeout: crate::Seconds,
    /// A spec file whose structures replace the standard library's.
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// With `--spec`: use the standard library as well (the spec may refer to it).
    #[arg(long, requires = "spec")]
    pub with_library: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also show every sample and every rejected binding with the invariant that failed.
    #[arg(short, long)]
    pub verbose: bool,
    /// Which states are sampled.
    #[arg(long, value_enum, default_value_t = SampleAt::Boundaries)]
    pub sample_at: SampleAt,
    /// Maximum number of edges explored in total.
    #[arg(long, default_value_t = Limits::default().max_steps)]
    pub max_steps: u64,
    /// Maximum number of live heap blocks in a state.
    #[arg(long, default_value_t = Limits::default().max_heap)]
    pub max_heap: usize,
    /// The data model: ILP32 (32-bit long and pointers) or LP64 (64-bit).
    #[arg(long, value_enum, default_value_t = crate::Model::Ilp32)]
    pub data_model: crate::Model,
}

/// Output formats.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Format {
    /// Lines of text.
    Text,
    /// One JSON document.
    Json,
}

/// Where samples are taken.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum SampleAt {
    /// Loop heads, function entries and returns.
    Boundaries,
    /// Every state (also in the middle of updates).
    Every,
}

/// Runs the classification.
pub fn run(args: &ClassifyArgs) -> ExitCode {
    let domain = match crate::specs::domain(args.spec.as_deref(), args.with_library) {
        Ok(d) => d,
        Err(e) => {
            eprint!("{e}");
            return ExitCode::from(2);
        }
    };
    let spec = domain.spec();
    let prog = match frontend::load_with(&args.file, args.data_model.data_model(), None) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let coll = sample::collect(&prog, config(args), limits(args));
    // The standard library runs as code compiled by the proc macro; a user's `--spec` runs
    // through the interpreter of the same IR (the two agree: library/tests/differential.rs).
    let types: Vec<TypeReport> = coll
        .types
        .iter()
        .map(|t| classify(domain.as_ref(), t))
        .collect();
    match args.format {
        Format::Text => crate::guard::print(&text(args, spec, &coll, &types)),
        Format::Json => crate::outln!("{:#}", json(args, spec, &coll, &types)),
    }
    ExitCode::SUCCESS
}

fn config(args: &ClassifyArgs) -> sample::Config {
    sample::Config {
        k: args.k as usize,
        d: args.d as usize,
        points: match args.sample_at {
            SampleAt::Boundaries => Points::Boundaries,
            SampleAt::Every => Points::Every,
        },
    }
}

fn limits(args: &ClassifyArgs) -> Limits {
    Limits {
        max_steps: args.max_steps,
        max_heap: args.max_heap,
        timeout: args.timeout.0,
        ..Limits::default()
    }
}

/// `dll[f=succ, b=pred]`.
fn show(spec: &Spec, b: &Binding) -> String {
    let st = &spec.structures[b.structure.0];
    let pairs: Vec<String> = st
        .roles
        .iter()
        .zip(&b.fields)
        .map(|(r, f)| format!("{r}={f}"))
        .collect();
    format!("{}[{}]", st.name, pairs.join(", "))
}

fn sample_origin(s: &Sample) -> String {
    format!(
        "root `{}` in {} at line {}, a {}",
        s.root,
        s.func,
        s.line,
        s.site.describe()
    )
}

fn header(args: &ClassifyArgs, c: &Collection) -> String {
    let run = format!(
        "{} steps, {} states sampled, {:.2} s",
        c.stats.steps, c.sampled, c.seconds
    );
    let file = args.file.display();
    let (k, d) = (args.k, args.d);
    if c.enough {
        return format!("{file}: {k} samples of >= {d} nodes for every recursive type ({run})");
    }
    let ended = if c.reasons.is_empty() {
        "the exploration was complete".to_string()
    } else {
        format!("the exploration ended incomplete: {}", c.reasons.join("; "))
    };
    format!(
        "{file}: fewer than {k} samples of >= {d} nodes for some recursive type, and {ended}; \
         classifying with what was found ({run})"
    )
}

fn text(args: &ClassifyArgs, spec: &Spec, c: &Collection, types: &[TypeReport]) -> String {
    let mut out = header(args, c);
    out.push('\n');
    if c.types.is_empty() {
        out.push_str("no recursive struct types (no struct has a pointer to its own type)\n");
    }
    for (ts, r) in c.types.iter().zip(types) {
        type_text(&mut out, args, spec, ts, r);
    }
    out
}

fn type_text(out: &mut String, args: &ClassifyArgs, spec: &Spec, ts: &TypeSamples, r: &TypeReport) {
    let name = &ts.ty.name;
    let fields: Vec<&str> = ts.ty.fields.iter().map(|f| f.name.as_str()).collect();
    if !ts.wanted && !args.verbose {
        return;
    }
    let _ = write!(out, "{name} (self-pointer fields: {}): ", fields.join(", "));
    let used = ts.used();
    let Some(site) = ts.site() else {
        let why = if ts.wanted {
            format!(
                "no sample of >= {} nodes found; nothing to classify",
                args.d
            )
        } else {
            "no pointer variable has this type; not sampled".into()
        };
        let _ = writeln!(out, "{why}");
        return;
    };
    let sizes: Vec<String> = used.iter().map(|s| s.shape.nodes().to_string()).collect();
    let unused = ts.samples.len() - used.len();
    let _ = write!(
        out,
        "{} sample{} at {}, nodes {}",
        used.len(),
        if used.len() == 1 { "" } else { "s" },
        site.plural(),
        sizes.join(", ")
    );
    let _ = match unused {
        0 => writeln!(out),
        n => writeln!(out, " ({n} more elsewhere, not used)"),
    };
    if args.verbose {
        samples_text(out, ts);
    }
    for (b, fine) in &r.enabled {
        let mark = if *fine { " (finest)" } else { "" };
        let _ = writeln!(out, "{name}: {}{mark}", show(spec, b));
    }
    let (rejected, unbindable) = not_enabled(spec, r);
    if !rejected.is_empty() {
        let _ = writeln!(out, "{name}: not enabled: {}", rejected.join(", "));
    }
    if !unbindable.is_empty() {
        let _ = writeln!(
            out,
            "{name}: not applicable (more roles than the {} self-pointer field{}): {}",
            fields.len(),
            if fields.len() == 1 { "" } else { "s" },
            unbindable.join(", ")
        );
    }
    if args.verbose {
        for j in &r.rejected {
            let _ = writeln!(
                out,
                "  rejected {}: {} is false on sample {} ({})",
                show(spec, &j.binding),
                j.invariant,
                j.sample + 1,
                sample_origin(used[j.sample])
            );
        }
    }
    let picks: Vec<String> = best(r).iter().map(|b| show(spec, b)).collect();
    if picks.is_empty() {
        let _ = writeln!(out, "{name} => none of the spec's structures");
    } else {
        let _ = writeln!(out, "{name} => {}", picks.join(" or "));
    }
}

/// The samples used, numbered, then the others.
fn samples_text(out: &mut String, ts: &TypeSamples) {
    let used = ts.used();
    let others = ts.samples.iter().filter(|s| Some(s.site) != ts.site());
    let numbered = used
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("sample {}", i + 1), *s));
    let rest = others.map(|s| ("not used".to_string(), s));
    for (label, s) in numbered.chain(rest) {
        let _ = writeln!(
            out,
            "  {label}: {}, {} nodes: {}",
            sample_origin(s),
            s.shape.nodes(),
            s.shape.describe(&ts.ty.fields)
        );
    }
}

/// The names of the structures with no enabled binding: those whose every binding was
/// rejected, and those with more roles than the type has self-pointer fields.
fn not_enabled<'s>(spec: &'s Spec, r: &TypeReport) -> (Vec<&'s str>, Vec<&'s str>) {
    let mut out = (vec![], vec![]);
    for (i, st) in spec.structures.iter().enumerate() {
        if r.enabled.iter().any(|(b, _)| b.structure.0 == i) {
            continue;
        }
        if r.unbindable.contains(&StructId(i)) {
            out.1.push(st.name.as_str());
        } else {
            out.0.push(st.name.as_str());
        }
    }
    out
}

fn json(args: &ClassifyArgs, spec: &Spec, c: &Collection, types: &[TypeReport]) -> Value {
    let types: Vec<Value> = c
        .types
        .iter()
        .zip(types)
        .map(|(ts, r)| type_json(spec, ts, r))
        .collect();
    json!({
        "file": args.file.display().to_string(),
        "k": args.k,
        "d": args.d,
        "exploration": {
            "enough_samples": c.enough,
            "reasons": c.reasons,
            "steps": c.stats.steps,
            "states": c.stats.states,
            "states_sampled": c.sampled,
            "seconds": c.seconds,
        },
        "types": types,
    })
}

fn binding_json(spec: &Spec, b: &Binding) -> Value {
    let roles = &spec.structures[b.structure.0].roles;
    let map: serde_json::Map<String, Value> = roles
        .iter()
        .zip(&b.fields)
        .map(|(r, f)| (r.clone(), Value::from(f.as_str())))
        .collect();
    json!({
        "structure": spec.structures[b.structure.0].name,
        "binding": map,
        "text": show(spec, b),
    })
}

fn type_json(spec: &Spec, ts: &TypeSamples, r: &TypeReport) -> Value {
    let sample = |s: &Sample| {
        let edges: Vec<Value> = s
            .shape
            .edge_list()
            .map(|(n, i, t)| json!([n, ts.ty.fields[i].name, t]))
            .collect();
        json!({"root": s.root, "function": s.func, "line": s.line, "site": s.site.describe(),
               "nodes": s.shape.nodes(), "edges": edges})
    };
    let samples: Vec<Value> = ts.used().into_iter().map(sample).collect();
    let others: Vec<Value> = ts
        .samples
        .iter()
        .filter(|s| Some(s.site) != ts.site())
        .map(sample)
        .collect();
    let enabled: Vec<Value> = r
        .enabled
        .iter()
        .map(|(b, fine)| {
            let mut v = binding_json(spec, b);
            v["finest"] = Value::from(*fine);
            v
        })
        .collect();
    let rejected: Vec<Value> = r
        .rejected
        .iter()
        .map(|j| {
            let mut v = binding_json(spec, &j.binding);
            v["invariant"] = Value::from(j.invariant.as_str());
            v["sample"] = Value::from(j.sample);
            v
        })
        .collect();
    let unbindable: Vec<&str> = r
        .unbindable
        .iter()
        .map(|s| spec.structures[s.0].name.as_str())
        .collect();
    let best: Vec<String> = best(r).iter().map(|b| show(spec, b)).collect();
    json!({
        "struct": ts.ty.name,
        "fields": ts.ty.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        "sampled": ts.wanted,
        "samples": samples,
        "unused_samples": others,
        "enabled": enabled,
        "best": best,
        "rejected": rejected,
        "unbindable": unbindable,
    })
}
