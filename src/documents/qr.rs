//! The QR code printed on every document: encoded, masked and drawn as vector SVG.
//!
//! The `qrcode` crate encodes the text and draws the symbol; the mask is chosen here, by the
//! penalty of ISO/IEC 18004:2015, 7.8.3.1, computed on a plain grid of modules (the crate's
//! own walk boxed a closure at every module: 2.3–3.6 ms a code, a quarter of a sticker's
//! render).

use std::fmt::Write as _;

use qrcode::canvas::{Canvas, MaskPattern};
use qrcode::{Color, EcLevel};

/// The quiet zone around the symbol, in modules.
const QUIET: usize = 4;

/// The eight masks of a QR code (not a Micro QR).
const MASKS: [MaskPattern; 8] = [
    MaskPattern::Checkerboard,
    MaskPattern::HorizontalLines,
    MaskPattern::VerticalLines,
    MaskPattern::DiagonalLines,
    MaskPattern::LargeCheckerboard,
    MaskPattern::Fields,
    MaskPattern::Diamonds,
    MaskPattern::Meadow,
];

/// A QR code as vector SVG, with its quiet zone.
#[derive(Debug, Clone)]
pub struct Qr {
    pub svg: String,
    /// Modules per side, without the quiet zone.
    pub modules: usize,
}

impl Qr {
    /// Encodes `text` at error-correction level M (documents read at arm's length).
    pub fn new(text: &str) -> Option<Self> {
        Self::with_level(text, EcLevel::M)
    }

    /// Encodes `text` at error-correction level Q: the windshield sticker, behind glass, in
    /// the sun, getting dirty, must still read with a quarter of it damaged.
    pub fn sticker(text: &str) -> Option<Self> {
        Self::with_level(text, EcLevel::Q)
    }

    /// The QR code of a document of token kind `kind` (`app_sticker`: level Q; else M).
    pub fn for_document(kind: &str, text: &str) -> Option<Self> {
        if kind == "app_sticker" {
            Self::sticker(text)
        } else {
            Self::new(text)
        }
    }

    fn with_level(text: &str, level: EcLevel) -> Option<Self> {
        let (dark, width) = encode(text.as_bytes(), level)?;
        Some(Self {
            svg: svg_of(&dark, width),
            modules: width,
        })
    }

    /// Printed width in mm so that the modules area (without quiet zone) is `modules_mm`.
    #[expect(
        clippy::cast_precision_loss,
        reason = "a QR code has at most 177 modules, exact in f64"
    )]
    pub fn printed_width_mm(&self, modules_mm: f64) -> f64 {
        let m = self.modules as f64;
        (modules_mm * (m + 8.0) / m * 10.0).ceil() / 10.0
    }
}

/// `text` at `level`, in the smallest version that holds it, under the mask of least
/// penalty (the first of them on a tie): the modules row by row, dark `true`, and the
/// modules per side.
fn encode(text: &[u8], level: EcLevel) -> Option<(Vec<bool>, usize)> {
    let (masked, width) = under_each_mask(text, level)?;
    masked
        .into_iter()
        .min_by_key(|dark| penalty(dark, width))
        .map(|dark| (dark, width))
}

/// The symbol of `text` at `level` under each of [`MASKS`], in their order, and its modules
/// per side.
fn under_each_mask(text: &[u8], level: EcLevel) -> Option<(Vec<Vec<bool>>, usize)> {
    let bits = qrcode::bits::encode_auto(text, level).ok()?;
    let version = bits.version();
    let (data, ec) = qrcode::ec::construct_codewords(&bits.into_bytes(), version, level).ok()?;
    let mut canvas = Canvas::new(version, level);
    canvas.draw_all_functional_patterns();
    canvas.draw_data(&data, &ec);
    let width = usize::try_from(version.width()).ok()?;
    let masked = MASKS
        .iter()
        .map(|&mask| {
            let mut masked = canvas.clone();
            masked.apply_mask(mask);
            masked
                .into_colors()
                .into_iter()
                .map(|c| c == Color::Dark)
                .collect()
        })
        .collect();
    Some((masked, width))
}

/// ISO/IEC 18004:2015, 7.8.3.1: the penalty of a masked symbol of `width` × `width` modules
/// (dark `true`, row by row). Lower reads better.
fn penalty(dark: &[bool], width: usize) -> usize {
    let at = |x: usize, y: usize| dark[y * width + x];
    let mut score = 0;
    let mut line = Vec::with_capacity(width);
    for horizontal in [true, false] {
        for i in 0..width {
            line.clear();
            line.extend((0..width).map(|j| if horizontal { at(j, i) } else { at(i, j) }));
            score += runs_penalty(&line) + finder_penalty(&line);
        }
    }
    // Feature 2: each 2 × 2 block of one colour, 3 points.
    for y in 0..width.saturating_sub(1) {
        for x in 0..width.saturating_sub(1) {
            let c = at(x, y);
            if at(x + 1, y) == c && at(x, y + 1) == c && at(x + 1, y + 1) == c {
                score += 3;
            }
        }
    }
    // Feature 4: 10 points for each full 5 % the dark modules stray from half.
    let total = width * width;
    let darks = dark.iter().filter(|d| **d).count();
    score + (darks * 2).abs_diff(total) * 10 / total.max(1) * 10
}

/// Feature 1: a run of 5 + i modules of one colour in a row or column, 3 + i points.
fn runs_penalty(line: &[bool]) -> usize {
    line.chunk_by(|a, b| a == b)
        .map(<[bool]>::len)
        .filter(|&len| len >= 5)
        .map(|len| len - 2)
        .sum()
}

/// Feature 3: dark-light-dark-dark-dark-light-dark (1:1:3:1:1) with 4 light modules before
/// it, or after it (beyond the symbol counts as light), 40 points each.
fn finder_penalty(line: &[bool]) -> usize {
    const CORE: [bool; 7] = [true, false, true, true, true, false, true];
    let light = |from: usize, to: usize| (from..to).all(|k| !line.get(k).copied().unwrap_or(false));
    line.windows(CORE.len())
        .enumerate()
        .filter(|(_, w)| *w == CORE)
        .map(|(j, _)| {
            40 * (usize::from(light(j.saturating_sub(4), j))
                + usize::from(light(j + CORE.len(), j + CORE.len() + 4)))
        })
        .sum()
}

/// The modules (`width` a side, dark `true`) as one SVG path, a unit a module, inside the
/// quiet zone. Each horizontal run of dark modules is one rectangle, carried down over the
/// rows below that have the very same run: the same figure as a square a module, in about a
/// quarter of the path's segments, which every page printing it carries and its rendering
/// walks.
fn svg_of(dark: &[bool], width: usize) -> String {
    let runs: Vec<Vec<(usize, usize)>> = dark
        .chunks(width)
        .map(|row| {
            let mut runs = Vec::new();
            let mut x = 0;
            for run in row.chunk_by(|a, b| a == b) {
                if run[0] {
                    runs.push((x, x + run.len()));
                }
                x += run.len();
            }
            runs
        })
        .collect();
    let mut drawn: Vec<Vec<bool>> = runs.iter().map(|r| vec![false; r.len()]).collect();
    let mut path = String::new();
    for (y, row) in runs.iter().enumerate() {
        for (i, &run) in row.iter().enumerate() {
            if drawn[y][i] {
                continue;
            }
            let mut height = 1;
            while let Some(j) = runs
                .get(y + height)
                .and_then(|below| below.binary_search(&run).ok())
                .filter(|&j| !drawn[y + height][j])
            {
                drawn[y + height][j] = true;
                height += 1;
            }
            let (x0, x1) = run;
            let _ = write!(
                path,
                "M{} {}h{}v{height}h-{}z",
                x0 + QUIET,
                y + QUIET,
                x1 - x0,
                x1 - x0
            );
        }
    }
    let side = width + 2 * QUIET;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{side}\" \
         height=\"{side}\" viewBox=\"0 0 {side} {side}\" shape-rendering=\"crispEdges\">\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\
         <path fill=\"#000\" d=\"{path}\"/></svg>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token's address as long as the real ones (≈ 250 characters after `/v/`).
    fn long_url() -> String {
        format!(
            "https://selo.barradogarcas.mt.gov.br/v/{}",
            "0oRNogEnBEh5RlFVQ1ZKTaBYX6hhdgFha2th".repeat(7)
        )
    }

    /// The rectangles of the SVG's path, as `[x, y, width, height]` in modules.
    fn rectangles(svg: &str) -> Vec<[usize; 4]> {
        let d = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        d.split('z')
            .filter(|r| !r.is_empty())
            .map(|r| {
                let n: Vec<usize> = r
                    .trim_start_matches('M')
                    .split([' ', 'h', 'v'])
                    .filter(|t| !t.is_empty() && !t.starts_with('-'))
                    .map(|t| t.parse().unwrap())
                    .collect();
                [n[0], n[1], n[2], n[3]]
            })
            .collect()
    }

    /// The path's rectangles cover exactly the dark modules: each dark module inside one
    /// rectangle, each light module and the quiet zone in none.
    #[test]
    fn the_svg_draws_exactly_the_dark_modules() {
        let (dark, width) = encode(long_url().as_bytes(), EcLevel::Q).unwrap();
        let svg = svg_of(&dark, width);
        let side = width + 2 * QUIET;
        assert!(
            svg.contains(&format!("viewBox=\"0 0 {side} {side}\"")),
            "{svg}"
        );
        let mut covered = vec![0u8; side * side];
        let rects = rectangles(&svg);
        for [x, y, w, h] in &rects {
            for yy in *y..y + h {
                for xx in *x..x + w {
                    covered[yy * side + xx] += 1;
                }
            }
        }
        let inside = QUIET..side - QUIET;
        for y in 0..side {
            for x in 0..side {
                let is_dark = inside.contains(&x)
                    && inside.contains(&y)
                    && dark[(y - QUIET) * width + (x - QUIET)];
                assert_eq!(
                    covered[y * side + x],
                    u8::from(is_dark),
                    "module ({x}, {y})"
                );
            }
        }
        let darks = dark.iter().filter(|d| **d).count();
        assert!(
            rects.len() * 2 < darks,
            "{} rectangles for {darks} dark modules",
            rects.len()
        );
    }

    /// What a reader decodes from the drawn symbol is the text, at both levels, short and
    /// long; and the mask drawn is the one of least penalty.
    #[test]
    fn a_code_reads_back_under_its_least_penalised_mask() {
        for text in ["https://selo.example.test/v/abc".to_owned(), long_url()] {
            for level in [EcLevel::M, EcLevel::Q] {
                let (dark, width) = encode(text.as_bytes(), level).unwrap();
                let px = 4;
                let side = (width + 2 * QUIET) * px;
                let mut img = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
                    let (mx, my) = (x / px, y / px);
                    let inside = (QUIET..QUIET + width).contains(&mx)
                        && (QUIET..QUIET + width).contains(&my);
                    if inside && dark[(my - QUIET) * width + (mx - QUIET)] {
                        0
                    } else {
                        255
                    }
                });
                let grids = img.detect_grids();
                assert_eq!(grids.len(), 1, "{level:?} {text}");
                let (meta, read) = grids[0].decode().unwrap();
                assert_eq!(read, text);
                let (masked, _) = under_each_mask(text.as_bytes(), level).unwrap();
                let least = masked
                    .iter()
                    .zip(MASKS)
                    .map(|(d, mask)| (penalty(d, width), mask as u16))
                    .min_by_key(|(score, _)| *score)
                    .unwrap();
                assert_eq!(meta.mask, least.1, "{level:?} {text}");
            }
        }
    }

    #[test]
    fn each_feature_of_the_penalty_counts_as_the_standard_says() {
        // Feature 1: runs of 5 + i, 3 + i points; shorter runs nothing.
        assert_eq!(runs_penalty(&[true; 4]), 0);
        assert_eq!(runs_penalty(&[true; 5]), 3);
        assert_eq!(
            runs_penalty(&[false, false, false, false, false, false, false, true]),
            5
        );
        // Feature 3: the finder-like pattern with light on both sides counts twice, on one
        // side once, beyond the symbol as light.
        let core = [true, false, true, true, true, false, true];
        let mut both = vec![false; 4];
        both.extend(core);
        both.extend([false; 4]);
        assert_eq!(finder_penalty(&both), 80);
        assert_eq!(finder_penalty(&core), 80);
        let mut one = vec![true, false, false, false];
        one.extend(core);
        one.extend([false; 4]);
        assert_eq!(finder_penalty(&one), 40);
        let mut none = vec![true, false, false, false];
        none.extend(core);
        none.extend([false, false, true, false]);
        assert_eq!(finder_penalty(&none), 0);
        // Features 2 and 4 on a 2 × 2 symbol all dark: one block (3), 100 % dark (100), and
        // runs too short to count.
        assert_eq!(penalty(&[true; 4], 2), 3 + 100);
        // A checkerboard: no run, no block, no pattern, half dark.
        let board: Vec<bool> = (0..36).map(|i| (i / 6 + i % 6) % 2 == 0).collect();
        assert_eq!(penalty(&board, 6), 0);
    }
}
