//! Reading a PDF as a person would, with crates only (no poppler, no zbar), so that
//! `cargo test --release` needs nothing but the Rust toolchain:
//! - the text, laid out in lines from the glyphs' positions (hayro's interpreter);
//! - the page count and page size (hayro's page tree, in points as `pdfinfo` prints them);
//! - the QR codes on a page rendered at 300 dpi (hayro's rasterizer, then `rqrr`).
//!
//! poppler and zbar stay as independent interoperability checks in `.ci/run`.

use hayro::hayro_interpret::font::Glyph;
use hayro::hayro_interpret::{
    BlendMode, ClipPath, Context, Device, GlyphDrawMode, Image, InterpreterCache,
    InterpreterSettings, Paint, PathDrawMode, SoftMask, interpret_page,
};
use hayro::hayro_syntax::Pdf;
use hayro::{RenderCache, RenderSettings};
use kurbo::{Affine, BezPath, Point, Rect, Shape};

fn open(pdf: &[u8]) -> Pdf {
    Pdf::new(pdf.to_vec()).unwrap_or_else(|e| panic!("not a readable PDF: {e:?}"))
}

/// One drawn character: where it starts and ends on the page (top-left origin, points).
struct Placed {
    text: String,
    x0: f64,
    x1: f64,
    baseline: f64,
    size: f64,
}

/// Collects every glyph that maps to Unicode, with its position.
#[derive(Default)]
struct TextCollector {
    height: f64,
    glyphs: Vec<Placed>,
}

impl Device<'_> for TextCollector {
    fn set_soft_mask(&mut self, _: Option<SoftMask<'_>>) {}
    fn set_blend_mode(&mut self, _: BlendMode) {}
    fn draw_path(&mut self, _: &BezPath, _: Affine, _: &Paint<'_>, _: &PathDrawMode) {}
    fn push_clip_path(&mut self, _: &ClipPath) {}
    fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'_>>, _: BlendMode) {}
    fn pop_clip_path(&mut self) {}
    fn pop_transparency_group(&mut self) {}
    fn draw_image(&mut self, _: Image<'_, '_>, _: Affine) {}

    fn draw_glyph(
        &mut self,
        glyph: &Glyph<'_>,
        transform: Affine,
        glyph_transform: Affine,
        _: &Paint<'_>,
        _: &GlyphDrawMode,
    ) {
        let Some(unicode) = glyph.as_unicode() else {
            return;
        };
        let text = match unicode {
            hayro::hayro_interpret::hayro_cmap::BfString::Char(c) => c.to_string(),
            hayro::hayro_interpret::hayro_cmap::BfString::String(s) => s,
        };
        let flip = Affine::translate((0.0, self.height)) * Affine::scale_non_uniform(1.0, -1.0);
        let full = flip * transform * glyph_transform;
        let origin = full * Point::ORIGIN;
        // Glyph space is 1000 units per em: the image of (0, 1000) gives the font size.
        let size = (full * Point::new(0.0, 1000.0) - origin).hypot().max(0.1);
        let ink = match glyph {
            Glyph::Outline(g) => (full * g.outline()).bounding_box(),
            Glyph::Type3(_) => Rect::new(origin.x, origin.y, origin.x + size * 0.5, origin.y),
        };
        let x1 = if ink.width() > 0.0 {
            ink.x1
        } else {
            origin.x + size * 0.25
        };
        self.glyphs.push(Placed {
            text,
            x0: origin.x,
            x1,
            baseline: origin.y,
            size,
        });
    }
}

/// The text of every page, one line per printed line, top to bottom, left to right. Typst
/// draws spaces as glyphs, so words keep their own spaces; a gap wider than about half an em
/// between runs adds one space (a narrow glyph such as "1" leaves less), a column gap three.
pub fn pdf_text(pdf: &[u8]) -> String {
    let doc = open(pdf);
    let cache = InterpreterCache::new();
    let mut out = String::new();
    for page in doc.pages().iter() {
        let (_, height) = page.render_dimensions();
        let mut ctx = Context::new(
            Affine::IDENTITY,
            Rect::new(0.0, 0.0, 1.0, 1.0),
            &cache,
            doc.xref(),
            InterpreterSettings::default(),
        );
        let mut collector = TextCollector {
            height: f64::from(height),
            ..TextCollector::default()
        };
        interpret_page(page, &mut ctx, &mut collector);
        out.push_str(&layout(collector.glyphs));
        out.push('\u{c}');
    }
    out
}

/// Groups glyphs into lines by baseline and joins them by their gaps.
fn layout(mut glyphs: Vec<Placed>) -> String {
    glyphs.sort_by(|a, b| a.baseline.total_cmp(&b.baseline));
    let mut lines: Vec<Vec<Placed>> = Vec::new();
    for g in glyphs {
        match lines.last_mut() {
            Some(line)
                if (g.baseline - line[0].baseline).abs() < g.size.min(line[0].size) * 0.4 =>
            {
                line.push(g);
            }
            _ => lines.push(vec![g]),
        }
    }
    let mut out = String::new();
    for mut line in lines {
        line.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        let mut prev: Option<&Placed> = None;
        for g in &line {
            if let Some(p) = prev {
                let gap = g.x0 - p.x1;
                let em = g.size.max(p.size);
                let joined_space = p.text.ends_with(' ') || g.text.starts_with(' ');
                if gap > em * 2.0 {
                    out.push_str("   ");
                } else if gap > em * 0.6 && !joined_space {
                    out.push(' ');
                }
            }
            out.push_str(&g.text);
            prev = Some(g);
        }
        out.push('\n');
    }
    out
}

/// Page count and page size as `pdfinfo` states them: `Pages:`, then `Page size:` of the
/// first page in points with three decimals, and `(A4)` when it is A4.
pub fn pdf_info(pdf: &[u8]) -> String {
    let doc = open(pdf);
    let pages = doc.pages();
    let first = pages.first().expect("a PDF with no page");
    let (w, h) = first.render_dimensions();
    let fmt = |v: f32| {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    let a4 = ((w - 595.276).abs() < 0.5 && (h - 841.89).abs() < 0.5).then_some(" (A4)");
    format!(
        "Pages:           {}\nPage size:       {} x {} pts{}\n",
        pages.len(),
        fmt(w),
        fmt(h),
        a4.unwrap_or_default()
    )
}

/// Renders the first page at 300 dpi and decodes every QR code on it.
pub fn qr_codes(pdf: &[u8]) -> Vec<String> {
    let (w, h, grey) = render_grey(pdf, 0, 300.0);
    decode_qr(w, h, &grey)
}

/// Page `index` rendered at `dpi` on white, as grey levels (BT.601 luma), row by row.
pub fn render_grey(pdf: &[u8], index: usize, dpi: f32) -> (usize, usize, Vec<u8>) {
    let doc = open(pdf);
    let page = doc.pages().get(index).expect("no such page");
    // At 150 dpi the seams hayro leaves between a vector QR's modules defeat the decoder;
    // at 300 dpi (as a phone camera sees a printed sticker) they do not.
    let scale = dpi / 72.0;
    let pixmap = hayro::render(
        page,
        &RenderCache::new(),
        &InterpreterSettings::default(),
        &RenderSettings {
            x_scale: scale,
            y_scale: scale,
            bg_color: hayro::vello_cpu::color::palette::css::WHITE,
            ..RenderSettings::default()
        },
    );
    let (w, h) = (usize::from(pixmap.width()), usize::from(pixmap.height()));
    let grey = pixmap
        .take_unpremultiplied()
        .iter()
        .map(|p| {
            u8::try_from(
                (u32::from(p.r) * 299 + u32::from(p.g) * 587 + u32::from(p.b) * 114) / 1000,
            )
            .unwrap_or(u8::MAX)
        })
        .collect();
    (w, h, grey)
}

/// Every QR code `rqrr` decodes in a grey image.
pub fn decode_qr(w: usize, h: usize, grey: &[u8]) -> Vec<String> {
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| grey[y * w + x]);
    img.detect_grids()
        .iter()
        .filter_map(|g| g.decode().ok().map(|(_, s)| s))
        .collect()
}
