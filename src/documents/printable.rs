//! What the documents can print: a text an official types ends up in a PDF
//! set in the embedded Noto Sans (Latin, Greek and Cyrillic scripts), regular and bold. A
//! character neither face can draw would fail the render (PDF/A forbids a missing glyph) after
//! a number was reserved; so every text is checked at the door instead. Control characters
//! (but line breaks and tabs), private-use characters and non-characters are refused whatever
//! the fonts hold.

use std::sync::OnceLock;

use ttf_parser::Face;

use super::render::{FONT_BOLD, FONT_REGULAR};

fn faces() -> Option<&'static (Face<'static>, Face<'static>)> {
    static FACES: OnceLock<Option<(Face<'static>, Face<'static>)>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            let regular = Face::parse(FONT_REGULAR, 0).ok()?;
            let bold = Face::parse(FONT_BOLD, 0).ok()?;
            Some((regular, bold))
        })
        .as_ref()
}

/// Whether every document can print `c`.
pub fn printable(c: char) -> bool {
    if matches!(c, '\n' | '\r' | '\t') {
        return true;
    }
    let u = u32::from(c);
    let private_use = (0xE000..=0xF8FF).contains(&u) || u >= 0xF_0000;
    let non_character = (0xFDD0..=0xFDEF).contains(&u) || u & 0xFFFE == 0xFFFE;
    if c.is_control() || private_use || non_character {
        return false;
    }
    faces().is_some_and(|(regular, bold)| {
        regular.glyph_index(c).is_some() && bold.glyph_index(c).is_some()
    })
}

/// The first character of `text` no document can print.
pub fn first_unprintable(text: &str) -> Option<char> {
    text.chars().find(|c| !printable(*c))
}

/// How a refused character is named to the person who typed it: the character itself when it
/// can be shown, and always its code point.
pub fn describe(c: char) -> String {
    let u = u32::from(c);
    if c.is_control() || (0xFDD0..=0xFDEF).contains(&u) || u & 0xFFFE == 0xFFFE {
        format!("U+{u:04X}")
    } else {
        format!("“{c}” (U+{u:04X})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_latin_greek_and_cyrillic_print() {
        for name in [
            "João Conceição Araújo",
            "Mañana Núñez Ibáñez",
            "Ærøskøbing Łukasz Dvořák Þórr Ğüneş",
            "Σωκράτης Παπαδόπουλος",
            "Пётр Ильич Чайковский",
            "O'Brien-Smith, Jr. (2º) — nº 12 · R$ 50,00 § 3º",
            "linha 1\nlinha 2\tcoluna",
        ] {
            assert_eq!(first_unprintable(name), None, "{name}");
        }
    }

    #[test]
    fn emoji_other_scripts_controls_and_non_characters_are_refused() {
        for (text, refused) in [
            ("Maria 😀", '😀'),
            ("李雷", '李'),
            ("محمد", 'م'),
            ("a\u{FFFE}b", '\u{FFFE}'),
            ("a\u{FDD0}", '\u{FDD0}'),
            ("a\u{E000}", '\u{E000}'),
            ("a\u{7}b", '\u{7}'),
            ("𝐀lfa", '𝐀'),
        ] {
            assert_eq!(first_unprintable(text), Some(refused), "{text}");
        }
        assert_eq!(describe('😀'), "“😀” (U+1F600)");
        assert_eq!(describe('\u{FFFE}'), "U+FFFE");
    }
}
