//! Brazilian identifiers as parsed values (docs/readings.md, identifiers): once you hold one, it is valid.
//!
//! Every parser normalises first (trim; drop `.`, `-`, `/` and spaces; upper case), then
//! checks the format and check digits, and stores the canonical, unformatted form.

use std::fmt;

/// Why an identifier was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("wrong length")]
    Length,
    #[error("invalid characters")]
    Characters,
    #[error("all characters identical")]
    Repeated,
    #[error("check digits do not match")]
    CheckDigits,
}

fn normalise(input: &str) -> String {
    input
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | '/' | ' ' | '\u{a0}'))
        .flat_map(char::to_uppercase)
        .collect()
}

fn digits(s: &str) -> Option<Vec<u32>> {
    s.chars().map(|c| c.to_digit(10)).collect()
}

fn all_same(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|first| chars.all(|c| c == first))
}

/// `0 if r < 2 else 11 − r`, the reduction shared by CPF, CNPJ and CNH.
fn mod11_dv(sum: u32) -> u32 {
    let r = sum % 11;
    if r < 2 { 0 } else { 11 - r }
}

/// CPF, 11 digits (docs/readings.md, identifiers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cpf(String);

impl Cpf {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        let s = normalise(input);
        let d = digits(&s).ok_or(IdError::Characters)?;
        if d.len() != 11 {
            return Err(IdError::Length);
        }
        if all_same(&s) {
            return Err(IdError::Repeated);
        }
        let dv1 = mod11_dv(d[..9].iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum());
        let dv2 = mod11_dv(d[..10].iter().zip((2..=11).rev()).map(|(x, w)| x * w).sum());
        if d[9] != dv1 || d[10] != dv2 {
            return Err(IdError::CheckDigits);
        }
        Ok(Self(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `000.000.000-00`.
    pub fn formatted(&self) -> String {
        let s = &self.0;
        format!("{}.{}.{}-{}", &s[0..3], &s[3..6], &s[6..9], &s[9..11])
    }

    /// `***.456.789-**`: the middle six digits only, the usual LGPD-minded mask for a reader
    /// who needs to tell two people apart but not to identify one.
    pub fn masked(&self) -> String {
        let s = &self.0;
        format!("***.{}.{}-**", &s[3..6], &s[6..9])
    }
}

const CNPJ_W1: [u32; 12] = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const RENAVAM_W: [u32; 10] = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/// CNPJ, 14 characters, numeric or alphanumeric (docs/readings.md, identifiers, IN RFB nº 2.229/2024).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cnpj(String);

impl Cnpj {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        let s = normalise(input);
        if s.chars().count() != 14 {
            return Err(IdError::Length);
        }
        let bytes = s.as_bytes();
        let base_ok = bytes[..12]
            .iter()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase());
        let dv_ok = bytes[12..].iter().all(u8::is_ascii_digit);
        if !base_ok || !dv_ok {
            return Err(IdError::Characters);
        }
        if all_same(&s) {
            return Err(IdError::Repeated);
        }
        // value(c) = ASCII(c) − 48: '0'..'9' → 0..9, 'A' → 17 … 'Z' → 42.
        let v: Vec<u32> = bytes.iter().map(|b| u32::from(*b) - 48).collect();
        let dv1 = mod11_dv(v[..12].iter().zip(CNPJ_W1).map(|(x, w)| x * w).sum());
        let dv2 = mod11_dv(v[..13].iter().zip(CNPJ_W2).map(|(x, w)| x * w).sum());
        if v[12] != dv1 || v[13] != dv2 {
            return Err(IdError::CheckDigits);
        }
        Ok(Self(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `00.000.000/0000-00`.
    pub fn formatted(&self) -> String {
        let s = &self.0;
        format!(
            "{}.{}.{}/{}-{}",
            &s[0..2],
            &s[2..5],
            &s[5..8],
            &s[8..12],
            &s[12..14]
        )
    }
}

/// Vehicle plate, old (`ABC1234`) or Mercosul (`BRA2E19`) (docs/readings.md, identifiers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Plate(String);

impl Plate {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        let s = normalise(input);
        let b = s.as_bytes();
        if b.len() != 7 {
            return Err(IdError::Length);
        }
        // ^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$
        let ok = b[..3].iter().all(u8::is_ascii_uppercase)
            && b[3].is_ascii_digit()
            && (b[4].is_ascii_digit() || b[4].is_ascii_uppercase())
            && b[5..].iter().all(u8::is_ascii_digit);
        if !ok {
            return Err(IdError::Characters);
        }
        Ok(Self(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_mercosul(&self) -> bool {
        self.0.as_bytes()[4].is_ascii_uppercase()
    }

    /// The Mercosul form of the same plate (5th character 0→A … 9→J), used to match one
    /// vehicle across documents that carry either form.
    pub fn mercosul_form(&self) -> String {
        let mut b = self.0.clone().into_bytes();
        if b[4].is_ascii_digit() {
            b[4] = b'A' + (b[4] - b'0');
        }
        String::from_utf8_lossy(&b).into_owned()
    }

    /// `ABC-1234` for old plates, `BRA2E19` for Mercosul ones.
    pub fn formatted(&self) -> String {
        if self.is_mercosul() {
            self.0.clone()
        } else {
            format!("{}-{}", &self.0[..3], &self.0[3..])
        }
    }
}

/// RENAVAM, 11 digits; 9-digit numbers are left-padded with zeros (docs/readings.md, identifiers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Renavam(String);

impl Renavam {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        let mut s = normalise(input);
        if digits(&s).is_none() {
            return Err(IdError::Characters);
        }
        if s.len() == 9 {
            s = format!("00{s}");
        }
        if s.len() != 11 {
            return Err(IdError::Length);
        }
        let d = digits(&s).ok_or(IdError::Characters)?;
        if all_same(&s) {
            return Err(IdError::Repeated);
        }
        let sum: u32 = d[..10].iter().zip(RENAVAM_W).map(|(x, w)| x * w).sum();
        let r = (sum * 10) % 11;
        let dv = if r == 10 { 0 } else { r };
        if d[10] != dv {
            return Err(IdError::CheckDigits);
        }
        Ok(Self(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// CNH registration number (*Nº Registro*), 11 digits (docs/readings.md, identifiers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CnhNumber(String);

impl CnhNumber {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        let mut s = normalise(input);
        if s.is_empty() || digits(&s).is_none() {
            return Err(IdError::Characters);
        }
        if s.len() > 11 {
            return Err(IdError::Length);
        }
        // Old CNHs may carry shorter numbers: left-pad to 11 [UNSURE, docs/readings.md, identifiers].
        if s.len() < 11 {
            s = format!("{s:0>11}");
        }
        let d = digits(&s).ok_or(IdError::Characters)?;
        if all_same(&s) {
            return Err(IdError::Repeated);
        }
        let s1: u32 = d[..9].iter().zip(2..=10).map(|(x, w)| x * w).sum();
        let dv1 = mod11_dv(s1);
        let s2: u32 = d[..9].iter().zip(3..=11).map(|(x, w)| x * w).sum::<u32>() + dv1 * 2;
        let dv2 = mod11_dv(s2);
        if d[9] != dv1 || d[10] != dv2 {
            return Err(IdError::CheckDigits);
        }
        Ok(Self(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `***456789**`: masked like the CPF beside it, the middle six digits only —
    /// enough to match the card in hand, not enough to reuse the number.
    pub fn masked(&self) -> String {
        let s = &self.0;
        format!("***{}**", &s[3..9])
    }
}

/// CNH category (docs/readings.md, identifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CnhCategory {
    A,
    B,
    C,
    D,
    E,
    Ab,
    Ac,
    Ad,
    Ae,
    Acc,
}

impl CnhCategory {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        Ok(match normalise(input).as_str() {
            "A" => Self::A,
            "B" => Self::B,
            "C" => Self::C,
            "D" => Self::D,
            "E" => Self::E,
            "AB" => Self::Ab,
            "AC" => Self::Ac,
            "AD" => Self::Ad,
            "AE" => Self::Ae,
            "ACC" => Self::Acc,
            _ => return Err(IdError::Characters),
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::A => "A",
            Self::B => "B",
            Self::C => "C",
            Self::D => "D",
            Self::E => "E",
            Self::Ab => "AB",
            Self::Ac => "AC",
            Self::Ad => "AD",
            Self::Ae => "AE",
            Self::Acc => "ACC",
        }
    }

    /// "Categoria B ou superior": {B, C, D, E} ∪ {AB, AC, AD, AE}.
    pub fn is_b_or_higher(self) -> bool {
        !matches!(self, Self::A | Self::Acc)
    }
}

impl fmt::Display for CnhCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// IBGE municipality code, 7 digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IbgeCode(u32);

impl IbgeCode {
    pub fn parse(input: &str) -> Result<Self, IdError> {
        let s = input.trim();
        if s.len() != 7 {
            return Err(IdError::Length);
        }
        s.parse::<u32>().map(Self).map_err(|_| IdError::Characters)
    }

    pub const fn from_const(code: u32) -> Self {
        Self(code)
    }

    pub fn code(self) -> u32 {
        self.0
    }

    /// The code as stored in an SQL `INTEGER` column (7 digits always fit).
    pub fn as_i32(self) -> i32 {
        i32::try_from(self.0).unwrap_or(i32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/readings.md, identifiers
    #[test]
    fn cpf_table() {
        for ok in [
            "123.456.789-09",
            "111.444.777-35",
            "529.982.247-25",
            "52998224725",
        ] {
            assert!(Cpf::parse(ok).is_ok(), "{ok} should be valid");
        }
        let bad = [
            ("123.456.789-10", IdError::CheckDigits),
            ("111.111.111-11", IdError::Repeated),
            ("529.982.247-52", IdError::CheckDigits),
            ("1234567890", IdError::Length),
            ("529.982.247-2A", IdError::Characters),
        ];
        for (input, err) in bad {
            assert_eq!(Cpf::parse(input), Err(err), "{input}");
        }
        let cpf = Cpf::parse("52998224725").unwrap();
        assert_eq!(cpf.formatted(), "529.982.247-25");
        assert_eq!(cpf.masked(), "***.982.247-**");
    }

    // docs/readings.md, identifiers
    #[test]
    fn cnpj_table() {
        for ok in [
            "11.222.333/0001-81",
            "03.439.239/0001-50",
            "12.ABC.345/01DE-35",
            "A1.B2C.3D4/E5F6-68",
            "BG.000.000/0001-30",
            "12.abc.345/01de-35",
        ] {
            assert!(Cnpj::parse(ok).is_ok(), "{ok} should be valid");
        }
        let bad = [
            ("11.222.333/0001-80", IdError::CheckDigits),
            ("00.000.000/0000-00", IdError::Repeated),
            ("12.ABC.345/01DE-53", IdError::CheckDigits),
            ("12.ABC.345/01DE-3A", IdError::Characters),
            ("11.222.333/0001-8", IdError::Length),
        ];
        for (input, err) in bad {
            assert_eq!(Cnpj::parse(input), Err(err), "{input}");
        }
        assert_eq!(
            Cnpj::parse("12ABC34501DE35").unwrap().formatted(),
            "12.ABC.345/01DE-35"
        );
    }

    // docs/readings.md, identifiers
    #[test]
    fn plate_table() {
        let p = Plate::parse("ABC-1234").unwrap();
        assert_eq!(p.as_str(), "ABC1234");
        assert_eq!(p.formatted(), "ABC-1234");
        assert_eq!(p.mercosul_form(), "ABC1C34");
        assert!(!p.is_mercosul());
        for ok in ["BRA2E19", "ABC1C34", "bra 2e19"] {
            assert!(Plate::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(Plate::parse("BRA2E19").unwrap().mercosul_form(), "BRA2E19");
        for bad in ["ABC12D3", "1ABC234", "AB-12345", "ABCD123", "ABC123"] {
            assert!(Plate::parse(bad).is_err(), "{bad}");
        }
    }

    // docs/readings.md, identifiers
    #[test]
    fn renavam_table() {
        for ok in [
            "13824652268",
            "08543317523",
            "09769017014",
            "01993520012",
            "123456789",
        ] {
            assert!(Renavam::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(Renavam::parse("123456789").unwrap().as_str(), "00123456789");
        for bad in [
            "38872054170",
            "40999838209",
            "13824652269",
            "1382465226",
            "1382465226X",
        ] {
            assert!(Renavam::parse(bad).is_err(), "{bad}");
        }
    }

    // docs/readings.md, identifiers
    #[test]
    fn cnh_table() {
        for ok in ["65821310502", "58316794534", "22571182500"] {
            assert!(CnhNumber::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(CnhNumber::parse("78623161668"), Err(IdError::CheckDigits));
        assert_eq!(CnhNumber::parse("00000000000"), Err(IdError::Repeated));
        assert_eq!(CnhNumber::parse("65821310520"), Err(IdError::CheckDigits));
        assert_eq!(CnhNumber::parse("123456789012"), Err(IdError::Length));
    }

    #[test]
    fn cnh_category_b_or_higher() {
        for c in ["B", "C", "D", "E", "AB", "AC", "AD", "AE"] {
            assert!(CnhCategory::parse(c).unwrap().is_b_or_higher(), "{c}");
        }
        for c in ["A", "ACC"] {
            assert!(!CnhCategory::parse(c).unwrap().is_b_or_higher(), "{c}");
        }
        assert!(CnhCategory::parse("F").is_err());
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            // Any 9-digit base completed with its own check digits parses, and any single
            // changed check digit is rejected.
            #[test]
            fn cpf_round_trip_and_tamper(base in proptest::collection::vec(0u32..10, 9), bump in 1u32..10) {
                let mut d = base.clone();
                d.push(mod11_dv(d.iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum()));
                d.push(mod11_dv(d.iter().zip((2..=11).rev()).map(|(x, w)| x * w).sum()));
                let s: String = d.iter().map(|x| char::from_digit(*x, 10).unwrap()).collect();
                prop_assume!(!all_same(&s));
                let cpf = Cpf::parse(&s).unwrap();
                prop_assert_eq!(Cpf::parse(&cpf.formatted()).unwrap(), cpf.clone());
                let mut t = d.clone();
                t[10] = (t[10] + bump) % 10;
                let s2: String = t.iter().map(|x| char::from_digit(*x, 10).unwrap()).collect();
                prop_assert!(Cpf::parse(&s2).is_err());
            }
        }
    }
}
