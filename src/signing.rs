//! Keys, signed tokens (`COSE_Sign1` with Ed25519), the X.509 chain and the PDF signatures.

pub mod checkpoint;
pub mod http_signature;
pub mod imported;
pub mod jws;
mod keyfile;
pub mod keys;
pub mod ocsp;
pub mod pades;
pub mod pkcs12;
pub mod pki;
pub mod policy;
pub mod revocation;
pub mod secrets;
pub mod status_list;
pub mod timestamp;
pub mod token;

/// Lower-case hexadecimal of `bytes` (key files, digests, PDF hex strings).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}
