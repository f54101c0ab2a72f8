//! ICP-Brasil's signature policies for PAdES (DOC-ICP-15.03): the policy a signature made
//! with the city's ICP-Brasil certificate names in its `SigPolicyId` attribute — the policy's
//! OID, its URI and its hash. The hash is the policy's own `signPolicyHash`, the last field of
//! the policy file (`SignaturePolicy ::= SEQUENCE { signPolicyHashAlg, signPolicyInfo,
//! signPolicyHash }`), which is what ITI's verifier compares; it is not the SHA-256 of the file.
//!
//! The AD-RB versions, and the AD-RT ones a timestamped signature names, are built in (their
//! values read from ITI's files, see `KNOWN`); any other policy (a later version) is read from
//! its file, given to `SELO_ICP_POLICY` as a path.

use const_oid::ObjectIdentifier;
use der::asn1::OctetString;
use der::{Any, Decode};
use spki::AlgorithmIdentifierOwned;

const ID_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");

/// Where ITI publishes its policy files.
const POLICIES_BASE: &str = "http://politicas.icpbrasil.gov.br/";

/// A signature policy as a signature names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignaturePolicy {
    /// `AD-RB v1.1`.
    pub name: String,
    pub oid: ObjectIdentifier,
    pub uri: String,
    /// The policy's `signPolicyHash` (SHA-256).
    pub hash: Vec<u8>,
    /// A built-in policy's kind (`RB`, `RT`) and version; `None` for one read from a file.
    pub built_in: Option<(&'static str, &'static str)>,
}

impl SignaturePolicy {
    /// The policy a signature that carries a signature timestamp names: the AD-RT of the same
    /// version for a built-in AD-RB; any other policy (an AD-RT, a file) as it is.
    #[must_use]
    pub fn timestamped(&self) -> SignaturePolicy {
        match self.built_in {
            Some(("RB", version)) => known("RT", version).unwrap_or_else(|| self.clone()),
            _ => self.clone(),
        }
    }
}

/// The built-in policies: (kind, version, OID, file, SHA-256 of the file, the file's
/// `signPolicyHash`). AD-RB is the basic signature; AD-RT the same with a signature timestamp
/// (PAdES B-T), named when a time-stamping authority is configured.
/// Read from ITI's files with `openssl asn1parse -inform DER -in FILE`: the last line is the
/// `signPolicyHash`; `sha256sum FILE` gives the file's hash, kept to recognise the file.
/// ITI's list of PAdES policies (LPA) of July 2025 lists v1.1 for signatures until
/// 2029-03-02 and v1.2 from 2025-06-12; v1.3 is in force from 2025-07-23 (for both kinds).
const KNOWN: [(&str, &str, &str, &str, &str, &str); 6] = [
    (
        "RB",
        "1.1",
        "2.16.76.1.7.1.11.1.1",
        "PA_PAdES_AD_RB_v1_1.der",
        "95752d26ca974d46675ae7fb787b606a71ea941f26b59f6b6a321f97d63b9cb1",
        "44fc5816eb2d705d8c8f022a7f93b3fb49edfae1a7b9149ef6fab833e9bb63f8",
    ),
    (
        "RB",
        "1.2",
        "2.16.76.1.7.1.11.1.2",
        "PA_PAdES_AD_RB_v1_2.der",
        "84ed4620c6531e4a4853adecc9e2496926c823418dd3141963ed9c4f9704a03d",
        "bf22358c963b52971f18c822d8529c5163fe55fa8eed1068d327adc6bc082ee2",
    ),
    (
        "RB",
        "1.3",
        "2.16.76.1.7.1.11.1.3",
        "PA_PAdES_AD_RB_v1_3.der",
        "23da544aef71f7a75dc85fa6e17a83875741e4baef41ec178258a5c86ace54dd",
        "23e4be4b9b362172e4ebb0e72b86a133ece5aad843d8651c6e38a0ba3f08fc60",
    ),
    (
        "RT",
        "1.1",
        "2.16.76.1.7.1.12.1.1",
        "PA_PAdES_AD_RT_v1_1.der",
        "953f7a202391c912216b9e84cf5dae75fe3e10e7f725fc77b60fca32fbac6426",
        "fa1d44e76ad91e2f6cd471b6987e9c0f1c70d4b70da0956e7becf4dc792c0c1f",
    ),
    (
        "RT",
        "1.2",
        "2.16.76.1.7.1.12.1.2",
        "PA_PAdES_AD_RT_v1_2.der",
        "da6e12c17e9be0343abbdb494723effcb53fe95f5f0b9bbee1b35bcef3a01eef",
        "19e0be31d91a6ffa694bbe0e9b35e4bc2f877f62dc6ac7a7833ada6345e15af8",
    ),
    (
        "RT",
        "1.3",
        "2.16.76.1.7.1.12.1.3",
        "PA_PAdES_AD_RT_v1_3.der",
        "92a972e7c292bb884e98e650773d9e9876994effb43eb36199b06bf2864a677c",
        "21d6e8d9f85e5626dc71307337a7cabd6ffef8d085038746775cf0ce6ba4d3b5",
    ),
];

/// The policy signatures carry unless the deployment names another: AD-RB v1.1.
pub const DEFAULT: &str = "AD-RB-1.1";

#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error(
        "unknown signature policy {0:?}: use AD-RB-1.1, AD-RB-1.2, AD-RB-1.3 (AD-RT-… the same) or the path of a policy file (.der)"
    )]
    Unknown(String),
    #[error("the policy file {path} cannot be read: {reason}")]
    File { path: String, reason: String },
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

fn known(kind: &str, version: &str) -> Option<SignaturePolicy> {
    KNOWN
        .iter()
        .find(|k| k.0 == kind && k.1 == version)
        .map(|(k, v, oid, file, _, hash)| SignaturePolicy {
            name: format!("AD-{k} v{v}"),
            oid: ObjectIdentifier::new_unwrap(oid),
            uri: format!("{POLICIES_BASE}{file}"),
            hash: unhex(hash),
            built_in: Some((k, v)),
        })
}

/// The default policy, AD-RB v1.1.
pub fn default_policy() -> SignaturePolicy {
    known("RB", "1.1").unwrap_or_else(|| unreachable!("AD-RB v1.1 is built in"))
}

/// The policy `setting` names: `AD-RB-1.1`, `AD-RB-1.2`, `AD-RB-1.3` (also `AD-RB v1.3`), the
/// same of AD-RT, or the path of a policy file, whose OID and `signPolicyHash` are read from it
/// and whose URI is ITI's address of a file of that name.
pub fn resolve(setting: &str) -> Result<SignaturePolicy, PolicyError> {
    let s = setting.trim();
    let upper = s.to_uppercase().replace(' ', "-");
    for kind in ["RB", "RT"] {
        let prefix = format!("AD-{kind}-");
        if let Some(v) = upper.strip_prefix(&prefix) {
            let v = v.strip_prefix('V').unwrap_or(v);
            return known(kind, v).ok_or_else(|| PolicyError::Unknown(s.to_owned()));
        }
    }
    if !s.to_lowercase().ends_with(".der") {
        return Err(PolicyError::Unknown(s.to_owned()));
    }
    let path = std::path::Path::new(s);
    let file_err = |reason: String| PolicyError::File {
        path: s.to_owned(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|e| file_err(e.to_string()))?;
    let (oid, hash) = read_policy_file(&bytes).map_err(|e| file_err(e.to_string()))?;
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(SignaturePolicy {
        name: file.trim_end_matches(".der").to_owned(),
        oid,
        uri: format!("{POLICIES_BASE}{file}"),
        hash,
        built_in: None,
    })
}

/// A policy file's identifier and its `signPolicyHash` (SHA-256 only).
pub fn read_policy_file(der: &[u8]) -> Result<(ObjectIdentifier, Vec<u8>), der::Error> {
    let outer = Any::from_der(der)?;
    let mut fields = der::SliceReader::new(outer.value())?;
    let alg = AlgorithmIdentifierOwned::decode(&mut fields)?;
    let info = Any::decode(&mut fields)?;
    let hash = OctetString::decode(&mut fields)?;
    if alg.oid != ID_SHA256 || hash.as_bytes().len() != 32 {
        return Err(der::ErrorKind::Value {
            tag: der::Tag::OctetString,
        }
        .into());
    }
    let mut info_fields = der::SliceReader::new(info.value())?;
    let oid = ObjectIdentifier::decode(&mut info_fields)?;
    Ok((oid, hash.as_bytes().to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use der::Encode as _;

    /// A policy file shaped as ITI's: the hash algorithm, the information (identifier first),
    /// the `signPolicyHash`.
    fn policy_file(oid: &str, hash: &[u8]) -> Vec<u8> {
        #[derive(der::Sequence)]
        struct Info {
            id: ObjectIdentifier,
            issued: der::asn1::GeneralizedTime,
        }
        #[derive(der::Sequence)]
        struct File {
            alg: AlgorithmIdentifierOwned,
            info: Info,
            hash: OctetString,
        }
        File {
            alg: AlgorithmIdentifierOwned {
                oid: ID_SHA256,
                parameters: None,
            },
            info: Info {
                id: ObjectIdentifier::new_unwrap(oid),
                issued: der::asn1::GeneralizedTime::from_unix_duration(
                    std::time::Duration::from_hours(487_008),
                )
                .unwrap(),
            },
            hash: OctetString::new(hash.to_vec()).unwrap(),
        }
        .to_der()
        .unwrap()
    }

    #[test]
    fn a_policy_file_gives_its_identifier_and_its_own_hash() {
        let hash = [7u8; 32];
        let file = policy_file("2.16.76.1.7.1.11.1.4", &hash);
        let (oid, read) = read_policy_file(&file).unwrap();
        assert_eq!(oid.to_string(), "2.16.76.1.7.1.11.1.4");
        assert_eq!(read, hash);
        assert!(read_policy_file(&file[..file.len() - 3]).is_err());

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("PA_PAdES_AD_RB_v1_4.der");
        std::fs::write(&path, &file).unwrap();
        let p = resolve(path.to_str().unwrap()).unwrap();
        assert_eq!(
            p.uri,
            "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RB_v1_4.der"
        );
        assert_eq!(p.hash, hash);
    }

    #[test]
    fn the_built_in_versions_carry_the_policys_own_hash_not_the_files() {
        let p = resolve(DEFAULT).unwrap();
        assert_eq!(p.oid.to_string(), "2.16.76.1.7.1.11.1.1");
        assert_eq!(crate::signing::hex(&p.hash)[..8], *"44fc5816");
        for (k, v, _, _, file_hash, own_hash) in KNOWN {
            assert_ne!(file_hash, own_hash, "AD-{k} v{v}");
        }
        assert_eq!(
            resolve("AD-RB v1.3").unwrap().oid.to_string(),
            "2.16.76.1.7.1.11.1.3"
        );
        assert!(matches!(resolve("AD-RB-9.9"), Err(PolicyError::Unknown(_))));
        assert!(matches!(resolve("AD-RT-9.9"), Err(PolicyError::Unknown(_))));
    }

    #[test]
    fn a_timestamped_signature_names_the_ad_rt_of_the_same_version() {
        let rb = resolve("AD-RB-1.2").unwrap();
        let rt = rb.timestamped();
        assert_eq!(rt.name, "AD-RT v1.2");
        assert_eq!(rt.oid.to_string(), "2.16.76.1.7.1.12.1.2");
        assert_eq!(crate::signing::hex(&rt.hash)[..8], *"19e0be31");
        assert_eq!(
            rt.uri,
            "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RT_v1_2.der"
        );
        assert_eq!(rt.timestamped(), rt);
        assert_eq!(
            resolve("ad-rt v1.1").unwrap().oid.to_string(),
            "2.16.76.1.7.1.12.1.1"
        );
    }
}
