//! `bench --html FILE`: the results as a page a person opens in a browser.
//!
//! Consumes the summary, the pairs' results and where their witnesses and pictures were
//! written; produces one HTML file (well-formed XML too, so tests can parse it): the summary
//! by property and by folder, then a row per pair with its verdict, category, time and reason,
//! linking the pair's witness and pictures where they exist (paths relative to the page).

use super::child::{pictures_name, witness_name};
use super::report::{Counts, PairResult, Summary};
use super::task::Pair;
use shapecheck_runtime::picture::svg::escape;
use std::fmt::Write;
use std::path::{Path, PathBuf};

const STYLE: &str = "body{font-family:sans-serif;font-size:13px}\
table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:2px 6px}\
th{background:#eef}td.n{text-align:right}.CorrectTrue,.CorrectFalse{background:#e6f7e6}\
.WrongTrue,.WrongFalse{background:#f7c6c6}.Unknown{background:#f4f4f4}\
.Error,.Timeout{background:#fbe8c8}";

/// Where the pairs' files are: the witness and picture folders, if any.
pub struct Files<'a> {
    /// The witnesses' folder.
    pub witnesses: Option<&'a Path>,
    /// The folder of the pairs' picture folders.
    pub pictures: Option<&'a Path>,
}

/// The page for `results` (in the order of `pairs`), to be written at `page`.
pub fn page(
    page: &Path,
    summary: &Summary,
    pairs: &[Pair],
    results: &[PairResult],
    files: &Files,
) -> String {
    let base = page.parent().unwrap_or(Path::new("."));
    let mut s = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/><title>shapecheck bench</title>\
         <style>{STYLE}</style></head><body>\n<h1>shapecheck bench</h1>\n"
    );
    counts_table(&mut s, "property", &summary.by_property, &summary.total);
    counts_table(&mut s, "folder", &summary.by_folder, &summary.total);
    s.push_str(
        "<table>\n<tr><th>folder</th><th>task</th><th>property</th><th>expected</th>\
         <th>verdict</th><th>CPU s</th><th>reason</th><th>files</th></tr>\n",
    );
    for (pair, r) in pairs.iter().zip(results) {
        let expected = match (&r.expected_verdict, &r.expected_subproperty) {
            (true, _) => "true".to_string(),
            (false, Some(sub)) => format!("false({sub})"),
            (false, None) => "false".to_string(),
        };
        let _ = writeln!(
            s,
            "<tr class=\"{:?}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td class=\"n\">{:.2}</td><td>{}</td><td>{}</td></tr>",
            r.category,
            escape(&r.folder),
            escape(&task_name(&r.task)),
            escape(r.property.name()),
            escape(&expected),
            escape(r.verdict_line.as_deref().unwrap_or("")),
            r.cpu_s,
            escape(r.reason.as_deref().unwrap_or("")),
            links(base, pair, files)
        );
    }
    s.push_str("</table>\n</body></html>\n");
    s
}

fn task_name(task: &str) -> String {
    Path::new(task)
        .file_stem()
        .map_or_else(|| task.to_string(), |s| s.to_string_lossy().into_owned())
}

fn counts_table(s: &mut String, what: &str, rows: &[super::report::Row], total: &Counts) {
    let _ = writeln!(
        s,
        "<table>\n<tr><th>{what}</th><th>pairs</th><th>correct TRUE</th><th>correct FALSE</th>\
         <th>wrong</th><th>unknown</th><th>errors/timeouts</th><th>score</th><th>CPU s</th></tr>"
    );
    let all = rows.iter().map(|r| (r.name.as_str(), &r.counts));
    for (name, c) in all.chain([("total", total)]) {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{:.1}</td></tr>",
            escape(name),
            c.pairs,
            c.correct_true,
            c.correct_false,
            c.wrong(),
            c.unknown,
            c.errors + c.timeouts,
            c.score,
            c.cpu_s
        );
    }
    s.push_str("</table>\n");
}

/// Links to the pair's witness and pictures that exist.
fn links(base: &Path, pair: &Pair, files: &Files) -> String {
    let mut found: Vec<(String, PathBuf)> = vec![];
    if let Some(dir) = files.witnesses {
        found.push(("witness".into(), dir.join(witness_name(pair))));
    }
    if let Some(dir) = files.pictures {
        let d = dir.join(pictures_name(pair));
        for name in ["heap", "trace", "shapes"] {
            found.push((name.into(), d.join(format!("{name}.svg"))));
        }
    }
    let links: Vec<String> = found
        .into_iter()
        .filter(|(_, p)| p.exists())
        .map(|(label, p)| {
            let href = p.strip_prefix(base).unwrap_or(&p).display().to_string();
            format!("<a href=\"{}\">{label}</a>", escape(&href))
        })
        .collect();
    links.join(" ")
}
