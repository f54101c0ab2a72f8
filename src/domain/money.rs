//! Amounts of money as the law and its documents state them: integer centavos, written
//! `R$ 1.234,56` in Brazilian Portuguese.

/// `R$ 1.234,56` with a no-break space (U+00A0) after the symbol.
pub fn money(centavos: i64) -> String {
    let sign = if centavos < 0 { "-" } else { "" };
    let abs = centavos.unsigned_abs();
    format!("{sign}R$\u{a0}{},{:02}", thousands(abs / 100), abs % 100)
}

/// `1.000`: thousands separated by dots, as in Brazilian Portuguese.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    grouped
}
