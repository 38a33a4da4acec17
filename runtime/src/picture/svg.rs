//! Draws laid-out pictures as SVG: consumes panels ([`Picture`]s, laid out by
//! [`super::layout`]) and produces one SVG document with the panels stacked under their
//! captions.
//!
//! A box is a rectangle with its title over a rule and its rows; a summary node gets a double
//! border, a freed block a dashed grey one, a leaked block a red one. An arrow forward (to a
//! later column) is a curve from the right edge of its row to the left edge of its target;
//! one backward or within a column (a cycle, a `prev` pointer, a self-loop) arcs above the
//! boxes to the top of its target. Dashed arrows may or may not be there.

use super::layout::{self, CHAR_W, Layout, PAD, ROW_H, Rect};
use super::{Arrow, Kind, Picture};
use std::fmt::Write;

/// Margin around and between panels.
const MARGIN: f64 = 16.0;
/// Height of a caption line.
const CAPTION_H: f64 = 24.0;
/// Room above the boxes for arrows that arc back.
const ARC_ROOM: f64 = 36.0;
/// Font size of box text.
const FONT: f64 = 12.0;

const STYLE: &str = "text{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12px}\
.caption{font-weight:bold;font-size:13px}.title{font-weight:bold}\
.label{font-size:10px;fill:#335}\
rect{stroke:#333;stroke-width:1}.Root rect{fill:#e6efff}.Object rect{fill:#fff}\
.Summary rect{fill:#fff7e0}.Freed rect{fill:#eee;stroke:#999;stroke-dasharray:4 3}\
.Freed text{fill:#777}.Leaked rect{fill:#ffe3e3;stroke:#c00;stroke-width:2}\
path.arrow{fill:none;stroke:#225;stroke-width:1.2;marker-end:url(#head)}\
path.maybe{stroke-dasharray:5 4}line.rule{stroke:#999}";

/// The SVG document of `panels`, top to bottom.
pub fn document(panels: &[Picture]) -> String {
    let layouts: Vec<Layout> = panels.iter().map(layout::layout).collect();
    let mut body = String::new();
    let (mut y, mut width) = (MARGIN, 0.0_f64);
    for (p, l) in panels.iter().zip(&layouts) {
        let caption_w = p.caption.chars().count() as f64 * CHAR_W * 1.15;
        width = width.max(l.width.max(caption_w));
        let _ = writeln!(
            body,
            "<text class=\"caption\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>",
            y + FONT,
            escape(&p.caption)
        );
        let top = y + CAPTION_H + ARC_ROOM;
        let _ = writeln!(body, "<g transform=\"translate({MARGIN},{top:.1})\">");
        panel(&mut body, p, l);
        body.push_str("</g>\n");
        y = top + l.height + MARGIN * 2.0;
    }
    let width = width + 2.0 * MARGIN + ARC_ROOM;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{y:.0}\" \
         viewBox=\"0 0 {width:.0} {y:.0}\">\n\
         <style>{STYLE}</style>\n\
         <defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#225\"/></marker></defs>\n\
         {body}</svg>\n"
    )
}

fn panel(out: &mut String, p: &Picture, l: &Layout) {
    for (b, r) in p.boxes.iter().zip(&l.rects) {
        let _ = writeln!(out, "<g class=\"{:?}\">", b.kind);
        rect(out, r, b.kind);
        text(out, r.x + PAD, r.y + ROW_H - 5.0, "title", &b.title);
        if !b.rows.is_empty() {
            let _ = writeln!(
                out,
                "<line class=\"rule\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                r.x,
                r.y + ROW_H,
                r.x + r.w,
                r.y + ROW_H
            );
        }
        for (i, row) in b.rows.iter().enumerate() {
            let y = r.y + (i + 2) as f64 * ROW_H - 5.0;
            text(out, r.x + PAD, y, "row", row);
        }
        out.push_str("</g>\n");
    }
    for a in &p.arrows {
        arrow(out, a, l);
    }
}

fn rect(out: &mut String, r: &Rect, kind: Kind) {
    let _ = writeln!(
        out,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\"/>",
        r.x, r.y, r.w, r.h
    );
    if kind == Kind::Summary {
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"2\" \
             fill=\"none\"/>",
            r.x + 3.0,
            r.y + 3.0,
            r.w - 6.0,
            r.h - 6.0
        );
    }
}

fn text(out: &mut String, x: f64, y: f64, class: &str, s: &str) {
    let _ = writeln!(
        out,
        "<text class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\">{}</text>",
        escape(s)
    );
}

/// The path of one arrow, and its label.
fn arrow(out: &mut String, a: &Arrow, l: &Layout) {
    let (s, t) = (l.rects[a.from], l.rects[a.to]);
    let sy = s.y + ROW_H * a.row.map_or(0.5, |r| r as f64 + 1.5);
    let sx = s.x + s.w;
    let (d, mid) = if l.column[a.to] > l.column[a.from] {
        let (tx, ty) = (t.x, t.y + ROW_H / 2.0);
        let dx = (tx - sx).max(20.0) / 2.0;
        (
            format!(
                "M{sx:.1},{sy:.1} C{:.1},{sy:.1} {:.1},{ty:.1} {tx:.1},{ty:.1}",
                sx + dx,
                tx - dx
            ),
            ((sx + tx) / 2.0, (sy + ty) / 2.0),
        )
    } else {
        let (tx, ty) = (t.x + t.w / 2.0, t.y);
        let top = s.y.min(t.y) - ARC_ROOM * 0.8;
        (
            format!(
                "M{sx:.1},{sy:.1} C{:.1},{sy:.1} {:.1},{top:.1} {tx:.1},{ty:.1}",
                sx + 30.0,
                tx + 10.0
            ),
            ((sx + tx) / 2.0 + 15.0, top + 8.0),
        )
    };
    let class = if a.maybe { "arrow maybe" } else { "arrow" };
    let _ = writeln!(out, "<path class=\"{class}\" d=\"{d}\"/>");
    if !a.label.is_empty() {
        text(out, mid.0, mid.1 - 3.0, "label", &a.label);
    }
}

/// `s` with the XML specials escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_every_arrow_is_drawn() {
        let mut p = Picture::new("a < b & c");
        let x = p.node("x", vec!["x = &h".into()], Kind::Root);
        let h = p.node("h", vec!["next = &h".into()], Kind::Leaked);
        p.arrow(x, Some(0), h, "", false);
        p.arrow(h, Some(0), h, "next", true);
        let s = document(&[p]);
        assert!(s.contains("a &lt; b &amp; c"));
        assert_eq!(s.matches("<path class=\"arrow").count(), 2);
        assert_eq!(s.matches("class=\"arrow maybe\"").count(), 1);
        assert!(s.contains("<g class=\"Leaked\">"));
        assert_eq!(s.matches("<g").count(), s.matches("</g>").count());
    }
}
