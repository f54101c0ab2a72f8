//! Addresses: text put into a link's query, and the addresses selo itself calls (platforms'
//! webhooks, the city's OpenID Connect provider).

use std::fmt::Write as _;

/// Percent-encodes everything but unreserved characters and `/`.
pub fn urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Percent-encodes everything but unreserved characters (a form field, a query value).
pub fn form_encode(s: &str) -> String {
    urlencode(s).replace('/', "%2F")
}

/// What an address selo is to call turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outbound {
    Https,
    /// `http://` to this machine: development and tests only.
    LoopbackHttp,
    /// `http://` elsewhere.
    Http,
}

/// An absolute `http(s)://` address of at most 2,000 characters, without user, blanks or
/// fragment; `None` otherwise.
pub fn outbound(url: &str) -> Option<Outbound> {
    if url.len() > 2000 || url.chars().any(char::is_whitespace) || url.contains('#') {
        return None;
    }
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let host = authority
        .strip_prefix('[')
        .and_then(|a| a.split_once(']').map(|(h, _)| h))
        .unwrap_or_else(|| authority.rsplit_once(':').map_or(authority, |(h, _)| h));
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match scheme {
        "https" => Some(Outbound::Https),
        "http" if loopback => Some(Outbound::LoopbackHttp),
        "http" => Some(Outbound::Http),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outbound_addresses_are_classified() {
        assert_eq!(outbound("https://sso.acesso.gov.br"), Some(Outbound::Https));
        assert_eq!(
            outbound("http://127.0.0.1:9000/x"),
            Some(Outbound::LoopbackHttp)
        );
        assert_eq!(outbound("http://[::1]:9000"), Some(Outbound::LoopbackHttp));
        assert_eq!(outbound("http://exemplo.com.br"), Some(Outbound::Http));
        for bad in ["ftp://x", "https://u:p@x", "https://x/#f", "https://", "x"] {
            assert_eq!(outbound(bad), None, "{bad}");
        }
        assert_eq!(form_encode("a b/c=d"), "a%20b%2Fc%3Dd");
    }
}
