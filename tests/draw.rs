//! `verify --draw`: a FALSE is drawn as the heap its replay ends in (leaked blocks marked,
//! fields named, one arrow per pointer between drawn boxes), a TRUE of the shape analysis
//! as its shape graphs at the loop heads, and anything else draws nothing and says why;
//! `verify --svg DIR` adds the counterexample step by step; `bench --html` links every pair's
//! witness and pictures. Every picture and page is parsed as XML (and the page opened in a
//! headless Chromium where one is installed).

use std::path::Path;
use std::process::Command;

const RING: &str = "#include <stdlib.h>
struct node { int v; struct node *next; };
static int ring(void) {
  struct node *first = NULL, *last = NULL;
  for (int i = 1; i <= 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->v = i;
    if (first == NULL) first = n; else last->next = n;
    last = n;
    last->next = first;
  }
  return first->v;
}
int main(void) { return ring(); }
";

/// Runs `verify FILE --draw P ARGS`; returns stdout and the picture, if one was written.
fn draw(dir: &Path, file: &Path, args: &[&str]) -> (String, Option<String>) {
    let svg = dir.join("p.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(file)
        .arg("--draw")
        .arg(&svg)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (stdout, std::fs::read_to_string(&svg).ok())
}

/// A box: its class and its texts (title first).
type Boxed = (String, Vec<String>);

/// The `<g>` boxes of a picture by class, the captions, and the number of arrows.
fn parse(svg: &str) -> (Vec<Boxed>, Vec<String>, usize) {
    let doc = roxmltree::Document::parse(svg).expect("the picture is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts = |n: roxmltree::Node| -> Vec<String> {
        n.descendants()
            .filter(|t| t.has_tag_name("text"))
            .map(|t| t.text().unwrap_or("").to_string())
            .collect()
    };
    let boxes = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class").is_some())
        .map(|n| (n.attribute("class").unwrap().to_string(), texts(n)))
        .collect();
    let captions = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("caption"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    let arrows = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("arrow")))
        .count();
    (boxes, captions, arrows)
}

#[test]
fn a_leak_is_drawn_as_the_lost_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ring.c");
    std::fs::write(&file, RING).unwrap();
    let (out, svg) = draw(dir.path(), &file, &["--check", "valid-memtrack"]);
    assert!(out.starts_with("FALSE(valid-memtrack)"), "{out}");
    assert!(out.contains("picture: "), "{out}");
    let (boxes, captions, arrows) = parse(&svg.expect("a picture"));
    assert!(
        captions[0].contains("valid-memtrack is violated at line 13"),
        "{captions:?}"
    );
    let leaked: Vec<_> = boxes.iter().filter(|(c, _)| c == "Leaked").collect();
    assert_eq!(leaked.len(), 3, "{boxes:?}");
    for (_, rows) in &leaked {
        assert!(rows[0].contains("unreachable"), "{rows:?}");
        assert!(
            rows.iter().any(|r| r.starts_with("next = &heap#")),
            "{rows:?}"
        );
        assert!(rows.iter().any(|r| r.starts_with("v = ")), "{rows:?}");
    }
    assert_eq!(arrows, 3, "one arrow per next pointer of the cycle");
}

#[test]
fn a_counterexample_heap_shows_variables_and_fields() {
    let dir = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dll_append_bug.c");
    let (out, svg) = draw(dir.path(), &file, &[]);
    assert!(out.starts_with("FALSE(unreach-call)"), "{out}");
    let (boxes, _, arrows) = parse(&svg.expect("a picture"));
    let roots: Vec<&str> = boxes
        .iter()
        .filter(|(c, _)| c == "Root")
        .map(|(_, t)| t[0].as_str())
        .collect();
    assert!(roots.contains(&"head (main)"), "{roots:?}");
    let objects: Vec<_> = boxes.iter().filter(|(c, _)| c == "Object").collect();
    assert_eq!(objects.len(), 4, "{boxes:?}");
    let pointers = boxes
        .iter()
        .flat_map(|(_, rows)| &rows[1..])
        .filter(|r| r.contains("&heap#"))
        .count();
    assert_eq!(arrows, pointers, "an arrow per pointer row");
    assert!(
        objects
            .iter()
            .all(|(_, r)| r.contains(&"prev = NULL".into())),
        "the bug"
    );
}

#[test]
fn a_shape_proof_is_drawn_at_its_loop_heads_and_unknown_draws_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = root.join("tests/programs/valid-memtrack/unbounded_sll.c");
    let args = [
        "--check",
        "valid-memtrack,valid-deref,valid-free",
        "--engine",
        "shape",
    ];
    let (out, svg) = draw(dir.path(), &file, &args);
    assert!(out.starts_with("TRUE"), "{out}");
    let (boxes, captions, _) = parse(&svg.expect("a picture"));
    assert!(!captions.is_empty());
    assert!(
        captions.iter().all(|c| c.starts_with("loop head at line")),
        "{captions:?}"
    );
    assert!(boxes.iter().any(|(c, _)| c == "Summary"), "a list segment");
    std::fs::remove_file(dir.path().join("p.svg")).unwrap();
    let (out, svg) = draw(dir.path(), &file, &["--engine", "explicit"]);
    assert!(out.starts_with("UNKNOWN"), "an unbounded list: {out}");
    assert!(svg.is_none());
    assert!(
        out.contains("picture: none written (the verdict is UNKNOWN)"),
        "{out}"
    );
}

#[test]
fn a_block_a_helper_allocated_is_named_like_its_siblings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("helper.c");
    let src = "#include <stdlib.h>
struct node { struct node *next; int v; };
static void *alloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
int main(void) {
  struct node *keep = alloc(sizeof *keep);
  keep->next = 0;
  keep->v = 1;
  struct node *lost = alloc(sizeof *lost);
  lost->next = keep;
  lost->v = 2;
  lost = 0;
  free(keep);
  return 0;
}
";
    std::fs::write(&file, src).unwrap();
    let (out, svg) = draw(dir.path(), &file, &["--check", "valid-memtrack"]);
    assert!(out.starts_with("FALSE(valid-memtrack)"), "{out}");
    let (boxes, _, arrows) = parse(&svg.expect("a picture"));
    let leaked: Vec<_> = boxes.iter().filter(|(c, _)| c == "Leaked").collect();
    assert_eq!(leaked.len(), 1, "{boxes:?}");
    let rows = &leaked[0].1;
    assert!(rows.contains(&"v = 2".to_string()), "{rows:?}");
    assert!(
        rows.iter().any(|r| r.starts_with("next = &heap#")),
        "{rows:?}"
    );
    assert_eq!(
        arrows, 2,
        "keep and the lost cell's next, both to the kept cell"
    );
}

#[test]
fn svg_folder_holds_the_counterexample_step_by_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dll_append_bug.c");
    let pics = dir.path().join("pics");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(&file)
        .arg("--svg")
        .arg(&pics)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("pictures: heap.svg, trace.svg in"), "{out}");
    let trace = std::fs::read_to_string(pics.join("trace.svg")).unwrap();
    let (_, captions, _) = parse(&trace);
    assert!(captions.len() > 5, "{captions:?}");
    assert!(captions[0].starts_with("step "), "{captions:?}");
    assert!(
        captions
            .iter()
            .any(|c| c.contains("in append: last->next = n")),
        "{captions:?}"
    );
    let last = captions.last().unwrap();
    assert!(
        last.starts_with("the violation of unreach-call at line 69"),
        "{last}"
    );
    parse(&std::fs::read_to_string(pics.join("heap.svg")).unwrap());
}

const REACH: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

/// A benchmark folder with one correct program and its buggy twin.
fn suite(dir: &Path) {
    let body = |bad: bool| {
        format!(
            "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
             int main(void) {{ int x = __VERIFIER_nondet_int(); if (x == 3 && {}) reach_error(); \
             return 0; }}\n",
            if bad { "1" } else { "x != 3" }
        )
    };
    std::fs::write(dir.join("unreach-call.prp"), REACH).unwrap();
    for (name, bad) in [("ok", false), ("bug", true)] {
        std::fs::write(dir.join(format!("{name}.c")), body(bad)).unwrap();
        let yml = format!(
            "format_version: '2.0'\ninput_files: '{name}.c'\nproperties:\n  - property_file: \
             unreach-call.prp\n    expected_verdict: {}\noptions:\n  language: C\n  data_model: \
             ILP32\n",
            !bad
        );
        std::fs::write(dir.join(format!("{name}.yml")), yml).unwrap();
    }
}

#[test]
fn bench_html_links_every_pairs_witness_and_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = dir.path().join("tasks");
    std::fs::create_dir(&tasks).unwrap();
    suite(&tasks);
    let page = dir.path().join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("bench")
        .arg(&tasks)
        .args(["--timeout", "30", "-j", "1", "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let html = html.replace("<!DOCTYPE html>", "");
    let doc = roxmltree::Document::parse(&html).expect("the page is well-formed");
    let rows: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("class").is_some())
        .collect();
    assert_eq!(rows.len(), 2);
    let classes: Vec<&str> = rows.iter().filter_map(|r| r.attribute("class")).collect();
    assert!(
        classes.contains(&"CorrectTrue") && classes.contains(&"CorrectFalse"),
        "{classes:?}"
    );
    let links: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("href"))
        .collect();
    assert!(
        links.iter().filter(|l| l.ends_with(".yml")).count() == 2,
        "{links:?}"
    );
    assert!(links.iter().any(|l| l.ends_with("/trace.svg")), "{links:?}");
    for l in &links {
        assert!(dir.path().join(l).exists(), "{l} does not exist");
    }
    headless_screenshot(&page);
}

/// Opens the page in a headless Chromium, where one is installed, and checks it renders.
fn headless_screenshot(page: &Path) {
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let Some(browser) = browser else {
        eprintln!("skipped: no headless browser (chromium) installed");
        return;
    };
    let shot = page.with_extension("png");
    let profile = tempfile::tempdir().unwrap();
    let status = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
        ])
        .args(["--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--window-size=1400,900")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .status()
        .unwrap();
    assert!(status.success());
    assert!(std::fs::metadata(&shot).is_ok_and(|m| m.len() > 1000));
}
