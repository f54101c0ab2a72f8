//! The printed verification code of a document: eight random symbols of an alphabet easy to
//! read aloud and a check symbol, so a typo is told apart from a code never issued.

/// Crockford base32 without I, L, O, U: easy to read aloud and to type.
pub const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// `K7Q29XHM4` → `K7Q-29X-HM4`; the 8 symbols of a code issued before the check symbol
/// keep their `K7Q2-9XHM` form.
pub fn group_code(symbols: &[u8]) -> String {
    let s = String::from_utf8_lossy(symbols);
    if symbols.len() == 8 {
        format!("{}-{}", &s[..4], &s[4..])
    } else {
        format!("{}-{}-{}", &s[..3], &s[3..6], &s[6..])
    }
}

/// The check symbol of `payload` (Luhn mod 32 over the code alphabet): it catches every
/// single mistyped symbol and every swap of two neighbours but that of `0` and `Z`.
pub fn check_symbol(payload: &[u8]) -> Option<u8> {
    let mut sum = 0usize;
    for (i, b) in payload.iter().rev().enumerate() {
        let value = CODE_ALPHABET.iter().position(|a| a == b)?;
        let addend = if i % 2 == 0 { value * 2 } else { value };
        sum += addend / 32 + addend % 32;
    }
    Some(CODE_ALPHABET[(32 - sum % 32) % 32])
}

/// Why a typed code is not a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeError {
    /// Wrong length or a symbol outside the alphabet.
    Malformed,
    /// Nine symbols whose check symbol does not match: a typo (or a made-up code).
    Mistyped,
}

/// Normalises a typed code (`k7q 29x hm4`, `K7Q29XHM4`) to `K7Q-29X-HM4`, reading `O` as `0`
/// and `I`, `L` as `1`. Nine symbols must pass their check symbol; eight are a code issued
/// before it existed (`K7Q2-9XHM`), looked up as they are.
pub fn normalise_verification_code(input: &str) -> Result<String, CodeError> {
    let symbols: Vec<u8> = input
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '.'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .map(|c| u8::try_from(c).unwrap_or(0))
        .collect();
    if !symbols.iter().all(|b| CODE_ALPHABET.contains(b)) {
        return Err(CodeError::Malformed);
    }
    match symbols.len() {
        8 => Ok(group_code(&symbols)),
        9 if check_symbol(&symbols[..8]) == Some(symbols[8]) => Ok(group_code(&symbols)),
        9 => Err(CodeError::Mistyped),
        _ => Err(CodeError::Malformed),
    }
}
