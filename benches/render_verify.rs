#![allow(clippy::unwrap_used, clippy::too_many_lines)]
//! `cargo bench`: sticker and A4 render + sign, token sign and verify, on this machine.
//! A plain harness (no extra dependencies): warm up, then time N runs and print percentiles.

use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use selo::documents::render::Renderer;
use selo::documents::{AppDocumentContext, Letterhead, Qr};
use selo::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};
use selo::domain::legal_basis::AppLegalBasis;
use selo::domain::registry::{AppAuthorization, Cnh, Driver, Vehicle};
use selo::signing::keys::{ActiveKey, KeySet};
use selo::signing::token::{self, TokenPayload};
use uuid::Uuid;

fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration, Duration) {
    samples.sort();
    let at = |p: f64| {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
        samples[i]
    };
    (at(0.5), at(0.95), at(0.99))
}

fn bench(name: &str, iterations: usize, mut f: impl FnMut()) {
    for _ in 0..=(iterations / 10) {
        f();
    }
    let samples: Vec<Duration> = (0..iterations)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    let (p50, p95, p99) = percentiles(samples);
    println!("{name:<40} n={iterations:<6} p50={p50:>10.2?} p95={p95:>10.2?} p99={p99:>10.2?}");
}

fn main() {
    let now: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-11-30T16:00:00Z")
        .unwrap()
        .to_utc();
    let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
    let basis = AppLegalBasis::draft_2023();
    let driver = Driver {
        id: Uuid::new_v4(),
        name: "Maria da Silva Souza".into(),
        cpf: Cpf::parse("52998224725").unwrap(),
        cnh: Cnh {
            number: CnhNumber::parse("58316794534").unwrap(),
            category: CnhCategory::B,
            first_license_date: d(2015, 3, 10),
            ear: true,
            expires_on: d(2030, 1, 1),
        },
        created_at: now,
    };
    let vehicle = Vehicle {
        id: Uuid::new_v4(),
        plate: Plate::parse("BRA2E19").unwrap(),
        renavam: Renavam::parse("13824652268").unwrap(),
        make: "Chevrolet".into(),
        model: "Onix Plus".into(),
        color: "Prata".into(),
        model_year: 2022,
        doors: 4,
        air_conditioning: true,
        capacity_including_driver: 5,
        registration_municipality: IbgeCode::from_const(5_101_803),
        created_at: now,
    };
    let authorization = AppAuthorization {
        id: Uuid::new_v4(),
        number: "APP-2026/000123".into(),
        driver_id: driver.id,
        vehicle_id: vehicle.id,
        fee_paid_on: d(2026, 11, 20),
        valid_from: d(2026, 11, 20),
        valid_until: d(2027, 11, 20),
        legal_basis_version: basis.version.into(),
        granted_at: now,
        granted_by: "bench".into(),
        revocation: None,
    };
    let letterhead = Letterhead {
        ouvidoria_phone: "(66) 3401-9999".into(),
        public_url: "https://selo.example.test".into(),
    };
    let ctx = AppDocumentContext {
        authorization: &authorization,
        driver: &driver,
        vehicle: &vehicle,
        basis: &basis,
        letterhead: &letterhead,
        issued_at: now,
    };
    let key = ActiveKey::from_seed([7; 32]);
    let mut keys = KeySet::default();
    keys.insert(key.verifying_key());
    let renderer = Renderer::new(2);
    let payload = TokenPayload {
        kind: "app_sticker".into(),
        document_id: Uuid::new_v4(),
        number: authorization.number.clone(),
        plate: "BRA2E19".into(),
        issued_at: now.timestamp(),
        valid_until: authorization.valid_until,
        issuer: "BDG-SMF".into(),
    };

    println!(
        "selo benchmarks ({} CPUs)",
        std::thread::available_parallelism().map_or(0, std::num::NonZero::get)
    );
    bench("token sign (COSE_Sign1, Ed25519)", 20_000, || {
        std::hint::black_box(token::sign(&payload, &key));
    });
    let signed = token::sign(&payload, &key);
    bench("token verify (decode + verify_strict)", 20_000, || {
        std::hint::black_box(token::verify(&signed, &keys).unwrap());
    });
    let mut bytes = 0;
    bench("sticker: sign token + QR + render PDF", 300, || {
        let t = token::sign(&payload, &key);
        let qr = Qr::new(&format!("https://selo.example.test/v/{t}")).unwrap();
        let inputs = ctx.sticker_inputs("K7Q2-9XHM", &qr);
        bytes = renderer
            .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), now)
            .unwrap()
            .len();
    });
    println!("{:<40} {} bytes", "  sticker PDF size", bytes);
    bench("A4 authorization: sign + QR + render PDF", 200, || {
        let t = token::sign(&payload, &key);
        let qr = Qr::new(&format!("https://selo.example.test/v/{t}")).unwrap();
        let inputs = ctx.authorization_inputs("K7Q2-9XHM", &qr);
        bytes = renderer
            .render_blocking("app_authorization.typ", &inputs, Some(&qr.svg), now)
            .unwrap()
            .len();
    });
    println!("{:<40} {} bytes", "  authorization PDF size", bytes);
}
