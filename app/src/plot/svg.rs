//! A small SVG writer: the few shapes the charts draw, with text escaped,
//! and the axes they share.

use std::fmt::Write;

/// An SVG document being written.
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

/// Colours of the series, in order (colour-blind safe, Okabe-Ito).
pub const COLOURS: [&str; 8] = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"];

/// `text` safe inside an SVG element or attribute.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl Svg {
    /// An empty document of this size (pixels).
    pub fn new(width: f64, height: f64) -> Svg {
        Svg { body: String::new(), width, height }
    }

    /// A filled rectangle with a tooltip.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, title: &str) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{fill}\"><title>{}</title></rect>",
            escape(title)
        );
    }

    /// A straight line.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"{stroke}\"/>"
        );
    }

    /// A dashed line (an information set's nodes joined, Gambit's way).
    pub fn dashed_line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"{stroke}\" stroke-dasharray=\"4 3\"/>"
        );
    }

    /// A line through the points.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str) {
        let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
        let _ = writeln!(
            self.body,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
            pts.join(" ")
        );
    }

    /// A filled circle with a tooltip.
    pub fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str, title: &str) {
        let _ = writeln!(
            self.body,
            "<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"{r:.2}\" fill=\"{fill}\" stroke=\"#333\"><title>{}</title></circle>",
            escape(title)
        );
    }

    /// Text anchored at `anchor` (`start`, `middle`, `end`).
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, text: &str) {
        let _ = writeln!(
            self.body,
            "<text x=\"{x:.2}\" y=\"{y:.2}\" font-size=\"{size}\" text-anchor=\"{anchor}\">{}</text>",
            escape(text)
        );
    }

    /// A legend of coloured squares, top right of the plot area.
    pub fn legend(&mut self, x: f64, y: f64, names: &[String]) {
        for (i, name) in names.iter().enumerate() {
            let y = y + 18.0 * i as f64;
            self.rect(x, y - 10.0, 12.0, 12.0, COLOURS[i % COLOURS.len()], name);
            self.text(x + 16.0, y, 12.0, "start", name);
        }
    }

    /// The whole document, titled.
    pub fn finish(self, title: &str) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"Helvetica, Arial, sans-serif\">\n<title>{t}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{cx}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{t}</text>\n{b}</svg>\n",
            w = self.width,
            h = self.height,
            cx = self.width / 2.0,
            t = escape(title),
            b = self.body
        )
    }
}
