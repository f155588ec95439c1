//! PNG output of the charts: the SVG rendered by resvg, with the system's
//! fonts. Only in builds with the `png` feature (galac's `png` feature,
//! which the README's set-up turns on; compiled solvers never, since the
//! renderer would add to every solver's build: README, "Plots").

/// How many pixels per SVG unit: twice, so that text stays sharp.
pub const SCALE: f32 = 2.0;

/// The PNG bytes of `svg`, or why it cannot be drawn.
#[cfg(feature = "png")]
pub fn render(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    if fonts.is_empty() {
        return Err("no fonts found on this system to draw the PNG's text; write an SVG instead (`-o FILE.svg`)".into());
    }
    // The charts ask for Helvetica, Arial or sans-serif; fontdb maps
    // sans-serif to Arial, which Linux systems rarely have.
    let sans = ["Arial", "Helvetica", "DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans"]
        .into_iter()
        .find(|f| fonts.faces().any(|face| face.families.iter().any(|(name, _)| name == f)))
        .map(str::to_string)
        .or_else(|| fonts.faces().next().and_then(|face| face.families.first().map(|(name, _)| name.clone())));
    if let Some(sans) = sans {
        fonts.set_sans_serif_family(sans);
    }
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("the chart's SVG does not render: {e}"))?;
    let size = tree.size().to_int_size().scale_by(SCALE).ok_or("the chart is too large for a PNG")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the chart is too large for a PNG")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(SCALE, SCALE), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// Without the renderer: why there is no PNG.
#[cfg(not(feature = "png"))]
pub fn render(_svg: &str) -> Result<Vec<u8>, String> {
    Err("this program draws SVG only: PNG needs the resvg renderer, in galac built with `--features png` (the README's \
         set-up) but never in compiled solvers; write an SVG (`-o FILE.svg`)"
        .into())
}
