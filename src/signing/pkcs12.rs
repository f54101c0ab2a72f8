//! Reading the city's A1 certificate from a PKCS#12 file (RFC 7292), as the certificate
//! authorities deliver it: the private key (RSA or ECDSA P-256) and the
//! certificate chain. Both encryptions in use are read: PBES2 (PBKDF2 + AES, the default of
//! OpenSSL 3 and current CAs) and the legacy PKCS#12 PBE (SHA-1 with 3DES or RC2, Windows and
//! older files); the MAC (HMAC-SHA-1 or HMAC-SHA-256) is checked first, so a wrong password is
//! told apart from a damaged file.

use cms::content_info::ContentInfo;
use cms::encrypted_data::EncryptedData;
use const_oid::ObjectIdentifier;
use der::asn1::{OctetString, SetOfVec};
use der::{Any, Decode, Encode};
use hmac::{KeyInit as _, Mac as _};
use spki::AlgorithmIdentifierOwned;
use x509_cert::attr::Attribute;
use x509_cert::certificate::Certificate;

use const_oid::db::rfc5911::{ID_DATA, ID_ENCRYPTED_DATA};
use const_oid::db::rfc5912::{ID_SHA_1 as SHA1, ID_SHA_256 as SHA256};

// PKCS#12 and PKCS#5 OIDs, which const-oid's database does not list.

const KEY_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.1");
const SHROUDED_KEY_BAG: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.2");
const CERT_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.3");
const X509_CERTIFICATE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.22.1");
const PBES2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
const PBE_SHA1_3DES: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.3");
const PBE_SHA1_RC2_128: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.5");
const PBE_SHA1_RC2_40: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.6");

/// Why a PKCS#12 file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Pkcs12Error {
    #[error("not a PKCS#12 file ({0})")]
    Format(String),
    #[error("wrong password, or the file is damaged (its MAC does not match)")]
    Password,
    #[error("unsupported in a PKCS#12 file: {0}")]
    Unsupported(String),
    #[error("the file holds no private key")]
    NoKey,
    #[error("no certificate in the file matches its private key")]
    NoCertificate,
}

fn format(e: impl std::fmt::Display) -> Pkcs12Error {
    Pkcs12Error::Format(e.to_string())
}

/// `PFX ::= SEQUENCE { version, authSafe ContentInfo, macData MacData OPTIONAL }`.
#[derive(Clone, Debug, der::Sequence)]
pub struct Pfx {
    pub version: u8,
    pub auth_safe: ContentInfo,
    pub mac_data: Option<MacData>,
}

#[derive(Clone, Debug, der::Sequence)]
pub struct MacData {
    pub mac: DigestInfo,
    pub mac_salt: OctetString,
    #[asn1(default = "one")]
    pub iterations: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, der::Sequence)]
pub struct DigestInfo {
    pub algorithm: AlgorithmIdentifierOwned,
    pub digest: OctetString,
}

#[derive(Clone, Debug, der::Sequence)]
pub struct SafeBag {
    pub bag_id: ObjectIdentifier,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT")]
    pub bag_value: Any,
    pub bag_attributes: Option<SetOfVec<Attribute>>,
}

#[derive(Clone, Debug, der::Sequence)]
pub struct CertBag {
    pub cert_id: ObjectIdentifier,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT")]
    pub cert_value: OctetString,
}

/// `EncryptedPrivateKeyInfo`, read with any algorithm (the PKCS#12 PBEs too).
#[derive(Clone, Debug, der::Sequence)]
pub struct EncryptedKey {
    pub algorithm: AlgorithmIdentifierOwned,
    pub data: OctetString,
}

/// `pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }`.
#[derive(Clone, Debug, der::Sequence)]
struct PbeParams {
    salt: OctetString,
    iterations: u32,
}

/// What a PKCS#12 file holds: the private key (PKCS#8 `PrivateKeyInfo` DER) and the chain,
/// its certificate first, then each issuer up to the root as far as the file has them.
pub struct Contents {
    pub key_pkcs8: Vec<u8>,
    /// The certificates as the file lists them.
    pub certs: Vec<Certificate>,
}

impl Contents {
    /// The chain of the key whose public key is `spki` (DER): its certificate first, then each
    /// issuer after its subject, as far as the file has them.
    pub fn chain_of(mut self, spki: &[u8]) -> Result<(Vec<u8>, Vec<Certificate>), Pkcs12Error> {
        let certs = &mut self.certs;
        let leaf_at = certs
            .iter()
            .position(|c| {
                c.tbs_certificate()
                    .subject_public_key_info()
                    .to_der()
                    .is_ok_and(|d| d == spki)
            })
            .ok_or(Pkcs12Error::NoCertificate)?;
        let mut chain = vec![certs.swap_remove(leaf_at)];
        while let Some(last) = chain.last() {
            let tbs = last.tbs_certificate();
            if tbs.issuer() == tbs.subject() {
                break;
            }
            let Some(at) = certs
                .iter()
                .position(|c| c.tbs_certificate().subject() == tbs.issuer())
            else {
                break;
            };
            chain.push(certs.swap_remove(at));
        }
        Ok((self.key_pkcs8, chain))
    }
}

/// The password as the PKCS#12 KDF takes it: UTF-16BE with a two-byte terminator.
fn bmp_password(password: &str) -> Vec<u8> {
    let mut out: Vec<u8> = password.encode_utf16().flat_map(u16::to_be_bytes).collect();
    out.extend_from_slice(&[0, 0]);
    out
}

/// The PKCS#12 key derivation (RFC 7292, appendix B.2) with hash `D`: `id` 1 for keys, 2 for
/// IVs, 3 for MAC keys.
pub fn kdf<D: sha1::Digest + sha1::digest::block_api::BlockSizeUser>(
    password: &str,
    salt: &[u8],
    iterations: u32,
    id: u8,
    len: usize,
) -> Vec<u8> {
    let block = <D as sha1::digest::block_api::BlockSizeUser>::block_size();
    let out_len = <D as sha1::Digest>::output_size();
    let fill = |s: &[u8]| -> Vec<u8> {
        if s.is_empty() {
            return Vec::new();
        }
        let n = block * s.len().div_ceil(block);
        s.iter().copied().cycle().take(n).collect()
    };
    let pass = bmp_password(password);
    let mut i_block: Vec<u8> = fill(salt);
    i_block.extend(fill(&pass));
    let diversifier = vec![id; block];
    let mut out = Vec::with_capacity(len + out_len);
    while out.len() < len {
        let mut hash = D::new()
            .chain_update(&diversifier)
            .chain_update(&i_block)
            .finalize();
        for _ in 1..iterations.max(1) {
            hash = D::digest(&hash);
        }
        out.extend_from_slice(&hash);
        if out.len() >= len {
            break;
        }
        let b: Vec<u8> = hash.iter().copied().cycle().take(block).collect();
        for chunk in i_block.chunks_mut(block) {
            // chunk = (chunk + b + 1) mod 2^(8v), big-endian.
            let mut carry = 1u16;
            for (x, y) in chunk.iter_mut().rev().zip(b.iter().rev()) {
                let sum = u16::from(*x) + u16::from(*y) + carry;
                *x = sum.to_le_bytes()[0];
                carry = sum >> 8;
            }
        }
    }
    out.truncate(len);
    out
}

/// Decrypts `data` encrypted with `alg` under `password`.
fn decrypt(
    alg: &AlgorithmIdentifierOwned,
    password: &str,
    data: &[u8],
) -> Result<Vec<u8>, Pkcs12Error> {
    use cbc::cipher::{BlockModeDecrypt, KeyIvInit, block_padding::Pkcs7};
    if alg.oid == PBES2 {
        let scheme = pkcs5::EncryptionScheme::from_der(&alg.to_der().map_err(format)?)
            .map_err(|e| Pkcs12Error::Unsupported(e.to_string()))?;
        return scheme
            .decrypt(password.as_bytes(), data)
            .map_err(|_| Pkcs12Error::Password);
    }
    let params: PbeParams = alg
        .parameters
        .as_ref()
        .ok_or_else(|| Pkcs12Error::Format("PBE parameters".into()))?
        .decode_as()
        .map_err(format)?;
    let (salt, n) = (params.salt.as_bytes(), params.iterations);
    let iv = kdf::<sha1::Sha1>(password, salt, n, 2, 8);
    let out = if alg.oid == PBE_SHA1_3DES {
        let key = kdf::<sha1::Sha1>(password, salt, n, 1, 24);
        cbc::Decryptor::<des::TdesEde3>::new_from_slices(&key, &iv)
            .map_err(format)?
            .decrypt_padded_vec::<Pkcs7>(data)
    } else if alg.oid == PBE_SHA1_RC2_40 || alg.oid == PBE_SHA1_RC2_128 {
        use cbc::cipher::InnerIvInit as _;
        let bits = if alg.oid == PBE_SHA1_RC2_40 { 40 } else { 128 };
        let key = kdf::<sha1::Sha1>(password, salt, n, 1, bits / 8);
        let rc2 = rc2::Rc2::new_with_eff_key_len(&key, bits);
        cbc::Decryptor::<rc2::Rc2>::inner_iv_slice_init(rc2, &iv)
            .map_err(format)?
            .decrypt_padded_vec::<Pkcs7>(data)
    } else {
        return Err(Pkcs12Error::Unsupported(format!("encryption {}", alg.oid)));
    };
    out.map_err(|_| Pkcs12Error::Password)
}

/// Checks the file's MAC: a wrong password fails here, before anything is decrypted.
fn check_mac(mac: &MacData, password: &str, content: &[u8]) -> Result<(), Pkcs12Error> {
    let salt = mac.mac_salt.as_bytes();
    let expected = mac.mac.digest.as_bytes();
    let ok = match mac.mac.algorithm.oid {
        oid if oid == SHA1 => {
            let key = kdf::<sha1::Sha1>(password, salt, mac.iterations, 3, 20);
            let mut m = hmac::Hmac::<sha1::Sha1>::new_from_slice(&key).map_err(format)?;
            m.update(content);
            m.verify_slice(expected).is_ok()
        }
        oid if oid == SHA256 => {
            let key = kdf::<sha2::Sha256>(password, salt, mac.iterations, 3, 32);
            let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key).map_err(format)?;
            m.update(content);
            m.verify_slice(expected).is_ok()
        }
        oid => return Err(Pkcs12Error::Unsupported(format!("MAC digest {oid}"))),
    };
    if ok {
        Ok(())
    } else {
        Err(Pkcs12Error::Password)
    }
}

fn octets(content: &Any) -> Result<Vec<u8>, Pkcs12Error> {
    Ok(content
        .decode_as::<OctetString>()
        .map_err(format)?
        .into_bytes()
        .into_vec())
}

/// Reads the key and the chain of a PKCS#12 file.
pub fn parse(pfx: &[u8], password: &str) -> Result<Contents, Pkcs12Error> {
    let pfx = Pfx::from_der(pfx).map_err(format)?;
    if pfx.auth_safe.content_type != ID_DATA {
        return Err(Pkcs12Error::Unsupported(
            "public-key integrity mode".to_owned(),
        ));
    }
    let content = octets(&pfx.auth_safe.content)?;
    if let Some(mac) = &pfx.mac_data {
        check_mac(mac, password, &content)?;
    }
    let safes: Vec<ContentInfo> = Vec::from_der(&content).map_err(format)?;
    let mut bags = Vec::new();
    for safe in safes {
        let plain = if safe.content_type == ID_DATA {
            octets(&safe.content)?
        } else if safe.content_type == ID_ENCRYPTED_DATA {
            let ed: EncryptedData = safe.content.decode_as().map_err(format)?;
            let info = ed.enc_content_info;
            let ct = info
                .encrypted_content
                .ok_or_else(|| Pkcs12Error::Format("empty encrypted content".into()))?;
            decrypt(&info.content_enc_alg, password, ct.as_bytes())?
        } else {
            return Err(Pkcs12Error::Unsupported(format!(
                "content type {}",
                safe.content_type
            )));
        };
        bags.extend(Vec::<SafeBag>::from_der(&plain).map_err(format)?);
    }
    let mut key = None;
    let mut certs = Vec::new();
    for bag in bags {
        match bag.bag_id {
            id if id == KEY_BAG => key = Some(bag.bag_value.to_der().map_err(format)?),
            id if id == SHROUDED_KEY_BAG => {
                let e: EncryptedKey = bag.bag_value.decode_as().map_err(format)?;
                key = Some(decrypt(&e.algorithm, password, e.data.as_bytes())?);
            }
            id if id == CERT_BAG => {
                let c: CertBag = bag.bag_value.decode_as().map_err(format)?;
                if c.cert_id == X509_CERTIFICATE {
                    certs.push(Certificate::from_der(c.cert_value.as_bytes()).map_err(format)?);
                }
            }
            _ => {}
        }
    }
    let key_pkcs8 = key.ok_or(Pkcs12Error::NoKey)?;
    Ok(Contents { key_pkcs8, certs })
}

/// Writes a PKCS#12 file as OpenSSL 3 does by default: the key shrouded and the certificates
/// encrypted with PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC), MAC HMAC-SHA-256. For tests and
/// for handing a throw-away certificate to other tools.
pub fn build(
    key_pkcs8: &[u8],
    chain: &[Certificate],
    password: &str,
) -> Result<Vec<u8>, Pkcs12Error> {
    let random = |n: usize| -> Result<Vec<u8>, Pkcs12Error> {
        let mut b = vec![0u8; n];
        getrandom::fill(&mut b).map_err(format)?;
        Ok(b)
    };
    let pbes2 = || -> Result<pkcs5::pbes2::Parameters, Pkcs12Error> {
        let iv: [u8; 16] = random(16)?.try_into().unwrap_or([7; 16]);
        pkcs5::pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(2048, &random(16)?, iv)
            .map_err(format)
    };
    let alg = |p: &pkcs5::pbes2::Parameters| -> Result<AlgorithmIdentifierOwned, Pkcs12Error> {
        let der = pkcs5::EncryptionScheme::from(p.clone())
            .to_der()
            .map_err(format)?;
        AlgorithmIdentifierOwned::from_der(&der).map_err(format)
    };
    let bag = |id: ObjectIdentifier, value: Vec<u8>| -> Result<SafeBag, Pkcs12Error> {
        Ok(SafeBag {
            bag_id: id,
            bag_value: Any::from_der(&value).map_err(format)?,
            bag_attributes: None,
        })
    };
    let key_params = pbes2()?;
    let shrouded = EncryptedKey {
        algorithm: alg(&key_params)?,
        data: OctetString::new(
            key_params
                .encrypt(password.as_bytes(), key_pkcs8)
                .map_err(format)?,
        )
        .map_err(format)?,
    };
    let key_bags = vec![bag(SHROUDED_KEY_BAG, shrouded.to_der().map_err(format)?)?];
    let cert_bags = chain
        .iter()
        .map(|c| {
            let cb = CertBag {
                cert_id: X509_CERTIFICATE,
                cert_value: OctetString::new(c.to_der().map_err(format)?).map_err(format)?,
            };
            bag(CERT_BAG, cb.to_der().map_err(format)?)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let cert_params = pbes2()?;
    let encrypted = EncryptedData {
        version: cms::content_info::CmsVersion::V0,
        enc_content_info: cms::enveloped_data::EncryptedContentInfo {
            content_type: ID_DATA,
            content_enc_alg: alg(&cert_params)?,
            encrypted_content: Some(
                OctetString::new(
                    cert_params
                        .encrypt(password.as_bytes(), &cert_bags.to_der().map_err(format)?)
                        .map_err(format)?,
                )
                .map_err(format)?,
            ),
        },
        unprotected_attrs: None,
    };
    let data = |bytes: Vec<u8>| -> Result<ContentInfo, Pkcs12Error> {
        Ok(ContentInfo {
            content_type: ID_DATA,
            content: Any::encode_from(&OctetString::new(bytes).map_err(format)?).map_err(format)?,
        })
    };
    let safes = vec![
        ContentInfo {
            content_type: ID_ENCRYPTED_DATA,
            content: Any::encode_from(&encrypted).map_err(format)?,
        },
        data(key_bags.to_der().map_err(format)?)?,
    ];
    let auth_safe = safes.to_der().map_err(format)?;
    let salt = random(16)?;
    let mac_key = kdf::<sha2::Sha256>(password, &salt, 2048, 3, 32);
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&mac_key).map_err(format)?;
    mac.update(&auth_safe);
    let pfx = Pfx {
        version: 3,
        auth_safe: data(auth_safe)?,
        mac_data: Some(MacData {
            mac: DigestInfo {
                algorithm: AlgorithmIdentifierOwned {
                    oid: SHA256,
                    parameters: None,
                },
                digest: OctetString::new(mac.finalize().into_bytes().to_vec()).map_err(format)?,
            },
            mac_salt: OctetString::new(salt).map_err(format)?,
            iterations: 2048,
        }),
    };
    pfx.to_der().map_err(format)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7292's KDF against the values OpenSSL computes for the same inputs (its
    /// `PKCS12_key_gen_utf8` with SHA-1): password "smeg", salt 0A58CF64530D823F, 1 iteration.
    #[test]
    fn the_pkcs12_kdf_matches_openssl() {
        let salt = [0x0A, 0x58, 0xCF, 0x64, 0x53, 0x0D, 0x82, 0x3F];
        let key = kdf::<sha1::Sha1>("smeg", &salt, 1, 1, 24);
        assert_eq!(
            super::super::hex(&key),
            "8aaae6297b6cb04642ab5b077851284eb7128f1a2a7fbca3"
        );
        let iv = kdf::<sha1::Sha1>("smeg", &salt, 1, 2, 8);
        assert_eq!(super::super::hex(&iv), "79993dfe048d3b76");
    }
}
