//! The print shop's file of the windshield sticker: each face in a 10 mm slug
//! with 3 mm of bleed and crop marks (drawn by the template), and the PDF boxes a print
//! shop's software reads — `TrimBox` (the 100 × 140 mm cut) and `BleedBox`.

use lopdf::{Document, Object};

/// Trim size of the sticker (APP-ART14: 10 × 14 cm), in mm.
pub const TRIM_MM: (f64, f64) = (100.0, 140.0);
/// Bleed around the trim, in mm.
pub const BLEED_MM: f64 = 3.0;
/// Slug (the margin that holds the crop marks) around the trim, in mm; the template's.
pub const SLUG_MM: f64 = 10.0;

fn pt(mm: f64) -> f64 {
    mm * 72.0 / 25.4
}

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Object {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "page coordinates in points, far inside f32"
    )]
    let n = |v: f64| Object::Real(v as f32);
    Object::Array(vec![n(pt(x0)), n(pt(y0)), n(pt(x1)), n(pt(y1))])
}

/// Sets `TrimBox` and `BleedBox` on every page of `pdf` (rendered with the slug).
pub fn set_print_boxes(pdf: &[u8]) -> Result<Vec<u8>, lopdf::Error> {
    let mut doc = Document::load_mem(pdf)?;
    let (w, h) = TRIM_MM;
    let trim = rect(SLUG_MM, SLUG_MM, SLUG_MM + w, SLUG_MM + h);
    let bleed = rect(
        SLUG_MM - BLEED_MM,
        SLUG_MM - BLEED_MM,
        SLUG_MM + w + BLEED_MM,
        SLUG_MM + h + BLEED_MM,
    );
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    for id in pages {
        let page = doc.get_object_mut(id)?.as_dict_mut()?;
        page.set("TrimBox", trim.clone());
        page.set("BleedBox", bleed.clone());
    }
    let mut out = Vec::new();
    doc.save_to(&mut out)?;
    Ok(out)
}
