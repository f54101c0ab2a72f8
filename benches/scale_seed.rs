#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark's seeder: a failed step stops it with its reason"
)]
//! Bulk seeding for `benches/scale.sh`: grows a register to hundreds of thousands of documents
//! in minutes by writing through the store's own commits (the same transactions, triggers,
//! change log and events as the API), reusing the PDFs of one authorization the API issued
//! instead of rendering each (the bytes are kept once, by their hash). Every document gets its
//! own id, number, verification code and signed token; the status data is real:
//!
//! - one grant in ten is revoked (cassação), one in twenty suspended for 30 days from today;
//! - one in ten was granted 400 days ago, so it and its sticker have expired;
//! - one in twenty had its car replaced (APP-ART8-P2): the first documents are replaced by two
//!   new ones;
//! - nine in ten passed their vistoria the day of the grant (APP-ART9); the others are a
//!   pendency of the worklist, as a register that just granted them would have.
//!
//! Usage (the service must not be running on a SQLite database meanwhile):
//!   `scale_seed DATABASE_URL KEYS_DIR TEMPLATE_AUTHORIZATION_ID FIRST_INDEX GRANTS CLIENTS`
//! Appends each in-force grant's authorization id to `$IDS_OUT` and every document's token to
//! `$TOKENS_OUT`, and prints the grants per second.

use std::io::Write as _;
use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Datelike as _, Duration, Months, NaiveDate, Utc};
use selo::cli::samples::SampleRecords;
use selo::domain::ids::{CnhNumber, Cpf, Plate, Renavam};
use selo::domain::ride_hailing::RideHailingAct;
use selo::domain::ride_hailing::registry::{Cnh, Driver, RideHailingAuthorization, Vehicle};
use selo::domain::ride_hailing::sanctions::{Sanction, SanctionKind};
use selo::domain::ride_hailing::substitution::SubstitutionCause;
use selo::signing::keys::ActiveKey;
use selo::signing::token::{self, TokenPayload};
use selo::storage::charter::{CharterCommit, NewEvent};
use selo::storage::documents::{Document, SignedDocument};
use selo::storage::ride_hailing::substitution::NewSubstitution;
use selo::storage::{DocumentKind, NewGrant, StorageError, Store};
use uuid::Uuid;

const ACTOR: &str = "ensaio-de-escala";

fn mod11(total: u32) -> u32 {
    let r = total % 11;
    if r < 2 { 0 } else { 11 - r }
}

fn digits(n: u64, width: usize) -> Vec<u32> {
    format!("{n:0width$}")
        .chars()
        .map(|c| c.to_digit(10).unwrap())
        .collect()
}

fn text(d: &[u32]) -> String {
    d.iter().map(ToString::to_string).collect()
}

/// The identifiers of grant `i`, as `scale_seed.py` makes them (the same check digits).
fn cpf(i: u64) -> String {
    let mut d = digits(100_000_000 + i, 9);
    d.push(mod11(
        d.iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum(),
    ));
    d.push(mod11(
        d.iter().zip((2..=11).rev()).map(|(x, w)| x * w).sum(),
    ));
    text(&d)
}

fn cnh(i: u64) -> String {
    let mut d = digits(200_000_000 + i, 9);
    let dv1 = mod11(d.iter().zip(2..=10).map(|(x, w)| x * w).sum());
    let dv2 = mod11(d.iter().zip(3..=11).map(|(x, w)| x * w).sum::<u32>() + dv1 * 2);
    d.extend([dv1, dv2]);
    text(&d)
}

fn renavam(i: u64) -> String {
    let mut d = digits(3_000_000_000 + i, 10);
    let weights = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let r = (d.iter().zip(weights).map(|(x, w)| x * w).sum::<u32>() * 10) % 11;
    d.push(if r == 10 { 0 } else { r });
    text(&d)
}

fn plate(index: u64) -> String {
    // Three letters, a digit, a letter and two digits, counted in that mixed radix.
    let letter = |n: u64| char::from(b'A' + u8::try_from(n % 26).unwrap());
    let mut rest = index;
    let mut take = |radix: u64| {
        let digit = rest % radix;
        rest /= radix;
        digit
    };
    let last_two = take(100);
    let fifth = take(26);
    let fourth = take(10);
    let third = take(26);
    let second = take(26);
    let first = take(26);
    format!(
        "{}{}{}{fourth}{}{last_two:02}",
        letter(first),
        letter(second),
        letter(third),
        letter(fifth)
    )
}

/// What the grants are made of: the key, the reused files and what the template carries.
struct Seed {
    store: Store,
    key: ActiveKey,
    /// Kind → the file issued for the template grant, and its SHA-256.
    pdfs: Vec<(DocumentKind, Vec<u8>, String)>,
    legal_basis_version: String,
    profile_version: Option<String>,
    now: DateTime<Utc>,
    today: NaiveDate,
    /// The project's sample driver and car, whose data every grant's take.
    sample: SampleRecords,
}

/// How grant `i` ends up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    InForce,
    Revoked,
    Suspended,
    Expired,
    Replaced,
}

fn fate(i: u64) -> Fate {
    match i % 20 {
        1 | 11 => Fate::Revoked,
        2 => Fate::Suspended,
        4 | 14 => Fate::Expired,
        6 => Fate::Replaced,
        _ => Fate::InForce,
    }
}

impl Seed {
    /// The sample car of the project's samples, with grant `i`'s identifiers.
    fn vehicle(&self, i: u64) -> Vehicle {
        Vehicle {
            id: Uuid::new_v4(),
            plate: Plate::parse(&plate(i)).unwrap(),
            renavam: Renavam::parse(&renavam(i)).unwrap(),
            owner: None,
            created_at: self.now,
            ..self.sample.vehicle.clone()
        }
    }

    /// The documents of an authorization (or of its car replacement `seq`), each with its
    /// own token and code, the bytes those of the template's.
    fn documents(
        &self,
        a: &RideHailingAuthorization,
        plate: &str,
        seq: Option<i32>,
        at: DateTime<Utc>,
    ) -> Vec<SignedDocument> {
        self.pdfs
            .iter()
            .map(|(kind, pdf, sha256)| {
                let id = Uuid::new_v4();
                let payload = TokenPayload {
                    kind: kind.as_str().to_owned(),
                    document_id: id,
                    number: a.number.clone(),
                    plate: plate.to_owned(),
                    issued_at: at.timestamp(),
                    valid_until: a.valid_until,
                    issuer: selo::documents::RIDE_HAILING_ISSUER.to_owned(),
                };
                SignedDocument {
                    document: Document {
                        id,
                        kind: *kind,
                        subject_type: "app_authorization".into(),
                        subject_id: a.id,
                        company_id: None,
                        authorization_id: Some(a.id),
                        substitution_seq: seq,
                        number: a.number.clone(),
                        verification_code: selo::documents::new_verification_code().unwrap(),
                        token: token::sign(&payload, &self.key),
                        key_id: self.key.kid().to_owned(),
                        sha256: sha256.clone(),
                        subject_key: plate.to_owned(),
                        valid_until: Some(a.valid_until),
                        legal_basis_version: a.legal_basis_version.clone(),
                        issued_at: at,
                        facts: None,
                        issued_by: Some(ACTOR.into()),
                        profile_version: self.profile_version.clone(),
                    },
                    pdf: pdf.clone(),
                    untimestamped: None,
                }
            })
            .collect()
    }

    /// Grant `i`: its driver and car, the numbered authorization with its two documents, and
    /// its fate. Returns the authorization's id and the tokens of every document.
    async fn grant(&self, i: u64) -> (Uuid, Fate, Vec<String>) {
        let fate = fate(i);
        let driver = Driver {
            id: Uuid::new_v4(),
            name: format!("Condutor {i}"),
            cpf: Cpf::parse(&cpf(i)).unwrap(),
            cnh: Cnh {
                number: CnhNumber::parse(&cnh(i)).unwrap(),
                ..self.sample.driver.cnh.clone()
            },
            created_at: self.now,
            ..self.sample.driver.clone()
        };
        let vehicle = self.vehicle(i);
        self.store.insert_driver(&driver, ACTOR).await.unwrap();
        self.store.insert_vehicle(&vehicle, ACTOR).await.unwrap();
        // Lei (minuta) art. 3º, parágrafo único: twelve months from the fee.
        let at = if fate == Fate::Expired {
            self.now - Duration::days(400)
        } else {
            self.now
        };
        let from = selo::domain::dates::local_date(at);
        let number = self
            .store
            .reserve_number("APP", from.year(), at, ACTOR)
            .await
            .unwrap()
            .number;
        let a = RideHailingAuthorization {
            id: Uuid::new_v4(),
            number,
            driver_id: driver.id,
            vehicle_id: vehicle.id,
            fee_paid_on: from,
            valid_from: from,
            valid_until: from + Months::new(12),
            legal_basis_version: self.legal_basis_version.clone(),
            granted_at: at,
            granted_by: ACTOR.into(),
            protocolled_on: Some(from),
            revocation: None,
            substitutions: 0,
            renewal_of: None,
        };
        let mut tokens = loop {
            let documents = self.documents(&a, vehicle.plate.as_str(), None, at);
            let tokens: Vec<String> = documents.iter().map(|d| d.document.token.clone()).collect();
            let committed = self
                .store
                .commit_grant(&NewGrant {
                    authorization: a.clone(),
                    documents,
                    review: None,
                    suspended: Vec::new(),
                })
                .await;
            if !code_taken(committed) {
                break tokens;
            }
        };
        if i % 10 != 8 {
            self.vistoria(&a, at).await;
        }
        self.befall(fate, &a, &vehicle, i, &mut tokens).await;
        (a.id, fate, tokens)
    }

    /// APP-ART9: the car presented and approved the day of the grant.
    async fn vistoria(&self, a: &RideHailingAuthorization, at: DateTime<Utc>) {
        let vistoria = serde_json::json!({
            "performed_on": a.valid_from, "approved": true, "inspector": "Fiscal de ensaio",
        });
        self.store
            .charter_commit(CharterCommit {
                events: vec![NewEvent::act(
                    "app_authorization",
                    a.id,
                    RideHailingAct::VistoriaRecorded.as_str(),
                    ACTOR,
                    a.legal_basis_version.clone(),
                    at,
                    vistoria,
                )],
                ..CharterCommit::default()
            })
            .await
            .unwrap();
    }

    /// What befalls grant `i` after it is granted: revocation, suspension or a new car.
    async fn befall(
        &self,
        fate: Fate,
        a: &RideHailingAuthorization,
        vehicle: &Vehicle,
        i: u64,
        tokens: &mut Vec<String>,
    ) {
        match fate {
            Fate::Revoked => {
                self.store
                    .revoke_authorization(a.id, "Cassação (ensaio de escala)", ACTOR, self.now)
                    .await
                    .unwrap();
            }
            Fate::Suspended => {
                let sanction = Sanction {
                    kind: SanctionKind::Suspensao,
                    effective_from: self.today,
                    until: Some(self.today + Duration::days(30)),
                    reason: "Ensaio de escala".into(),
                    legal_basis: "art. 26, §1º".into(),
                };
                self.store
                    .add_sanction(a.id, &sanction, ACTOR, self.now)
                    .await
                    .unwrap();
            }
            Fate::Replaced => {
                // A car plate no grant uses: past every index the script seeds.
                let car = self.vehicle(i + 50_000_000);
                self.store.insert_vehicle(&car, ACTOR).await.unwrap();
                loop {
                    let documents = self.documents(a, car.plate.as_str(), Some(1), self.now);
                    let committed = self
                        .store
                        .commit_substitution(&NewSubstitution {
                            authorization_id: a.id,
                            seq: 1,
                            old_vehicle_id: vehicle.id,
                            new_vehicle_id: car.id,
                            cause: SubstitutionCause::Venda,
                            vistoria_on: self.today,
                            protocolled_on: self.today,
                            at: self.now,
                            actor: ACTOR,
                            documents: &documents,
                            events: Vec::new(),
                        })
                        .await;
                    if !code_taken(committed) {
                        tokens.extend(documents.iter().map(|d| d.document.token.clone()));
                        break;
                    }
                }
            }
            Fate::InForce | Fate::Expired => {}
        }
    }
}

/// Whether a commit was refused only because a printed code drawn for its documents is
/// taken (40 random bits: among a million documents, a draw collides about once); any other
/// failure stops the seeding.
fn code_taken<T: std::fmt::Debug>(committed: Result<T, StorageError>) -> bool {
    match committed {
        Ok(_) => false,
        Err(StorageError::Conflict("verification_code")) => true,
        Err(e) => panic!("a commit failed: {e}"),
    }
}

fn append(var: &str, lines: &[String]) {
    let path = std::env::var(var).unwrap_or_else(|_| panic!("{var} names no file"));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [url, keys_dir, template, first, grants, clients] = args.as_slice() else {
        panic!(
            "usage: scale_seed DATABASE_URL KEYS_DIR TEMPLATE_AUTHORIZATION_ID FIRST_INDEX GRANTS CLIENTS"
        );
    };
    let first: u64 = first.parse().expect("FIRST_INDEX");
    let grants: u64 = grants.parse().expect("GRANTS");
    let clients: u64 = clients.parse().expect("CLIENTS");
    let store = Store::connect(url).await.expect("the database");
    let keys = selo::signing::keys::load(std::path::Path::new(keys_dir), true).expect("the keys");
    let template = Uuid::parse_str(template).expect("TEMPLATE_AUTHORIZATION_ID");
    let a = store
        .get_authorization(template)
        .await
        .unwrap()
        .expect("the template authorization");
    let mut pdfs = Vec::new();
    let mut profile_version = None;
    for d in store.documents_of(template).await.unwrap() {
        let pdf = store.document_pdf(d.id).await.unwrap().unwrap();
        profile_version.clone_from(&d.profile_version);
        pdfs.push((d.kind, pdf, d.sha256));
    }
    let now = Utc::now();
    let seed = Arc::new(Seed {
        store,
        key: keys.active,
        pdfs,
        legal_basis_version: a.legal_basis_version,
        profile_version,
        now,
        today: selo::domain::dates::local_date(now),
        sample: SampleRecords::new(now).expect("the sample records"),
    });
    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..clients {
        let seed = seed.clone();
        tasks.push(tokio::spawn(async move {
            let mut ids = Vec::new();
            let mut tokens = Vec::new();
            let mut i = first + c;
            while i < first + grants {
                let (id, fate, t) = seed.grant(i).await;
                if fate == Fate::InForce {
                    ids.push(id.to_string());
                }
                tokens.extend(t);
                i += clients;
            }
            (ids, tokens)
        }));
    }
    for t in tasks {
        let (ids, tokens) = t.await.unwrap();
        append("IDS_OUT", &ids);
        append("TOKENS_OUT", &tokens);
    }
    let secs = started.elapsed().as_secs_f64();
    #[expect(clippy::cast_precision_loss, reason = "a rate to print")]
    let rate = grants as f64 / secs;
    println!("bulk: {grants} grants in {secs:.0} s ({rate:.0} grants/s)");
}
