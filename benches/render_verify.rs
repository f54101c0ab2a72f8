#![expect(
    clippy::unwrap_used,
    reason = "a benchmark: a failed unwrap stops it with its reason"
)]
//! `cargo bench`: sticker and A4 render + sign, token sign and verify, on this machine.
//! A plain harness (no extra dependencies): warm up, then time N runs and print percentiles.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use selo::cli::samples::SampleRecords;
use selo::documents::render::Renderer;
use selo::documents::{Letterhead, Qr};
use selo::signing::keys::KeySet;
use selo::signing::pades::{self, SignatureInfo};
use selo::signing::token::{self, TokenPayload};
use uuid::Uuid;

fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration, Duration) {
    samples.sort();
    let at = |p: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "a percentile's index inside the sample"
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
    let records = SampleRecords::new(now).unwrap();
    let authorization = &records.authorization;
    let profile = std::sync::Arc::new(selo::documents::profile::Profile::embedded().unwrap());
    let letterhead = Letterhead::new(profile.clone(), "https://selo.example.test");
    let ctx = records.context(&letterhead, now);
    let keys_dir = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(keys_dir.path()).unwrap();
    let loaded = selo::signing::keys::load(keys_dir.path(), true).unwrap();
    let key = &loaded.active;
    let keys: &KeySet = &loaded.public;
    let renderer = Renderer::new(2, profile);
    let payload = TokenPayload {
        kind: "app_sticker".into(),
        document_id: Uuid::new_v4(),
        number: authorization.number.clone(),
        plate: "BRA2E19".into(),
        issued_at: now.timestamp(),
        valid_until: authorization.valid_until,
        issuer: "BDG-SMF".into(),
    };
    let info = SignatureInfo {
        time: now,
        name: "Prefeitura Municipal de Barra do Garças",
        reason: "benchmark",
        location: "Barra do Garças-MT",
    };

    println!(
        "selo benchmarks ({} CPUs)",
        std::thread::available_parallelism().map_or(0, std::num::NonZero::get)
    );
    bench("token sign (COSE_Sign1, Ed25519)", 20_000, || {
        std::hint::black_box(token::sign(&payload, key));
    });
    let signed = token::sign(&payload, key);
    bench("token verify (decode + verify_strict)", 20_000, || {
        std::hint::black_box(token::verify(&signed, keys).unwrap());
    });
    for (name, template, n) in [
        ("sticker", "app_sticker.typ", 300),
        ("A4 authorization", "app_authorization.typ", 200),
    ] {
        let mut bytes = Vec::new();
        bench(&format!("{name}: token + QR + render + PAdES"), n, || {
            let t = token::sign(&payload, key);
            // The sticker's code at level Q, as issued; the A4's at level M.
            let kind = if template == "app_sticker.typ" {
                "app_sticker"
            } else {
                "app_authorization"
            };
            let qr = Qr::for_document(kind, &format!("https://selo.example.test/v/{t}")).unwrap();
            let inputs = if template == "app_sticker.typ" {
                ctx.sticker_inputs("K7Q2-9XHM", &qr)
            } else {
                ctx.authorization_inputs("K7Q2-9XHM", &qr)
            };
            let pdf = renderer
                .render_blocking(template, &inputs, Some(&qr.svg), now)
                .unwrap();
            bytes = pades::sign_pdf(&pdf, &loaded.pdf_signer(), &info).unwrap();
        });
        println!("{:<40} {} bytes", format!("  {name} PDF size"), bytes.len());
        bench(
            &format!("{name}: verify embedded PDF signature"),
            500,
            || {
                std::hint::black_box(pades::verify_pdf(&bytes, &loaded.chain.root, keys).unwrap());
            },
        );
    }
    if let Ok(url) = std::env::var("SELO_BENCH_TSA_URL") {
        timestamped(&url, &renderer, &ctx, &loaded, &info, &payload, now);
    }
    rss_after_renders(&renderer, &ctx, now);
}

/// With `SELO_BENCH_TSA_URL` (`benches/timestamp.sh` starts OpenSSL's authority on loopback):
/// the sticker as above, its signature timestamped, the authority's round trip included.
fn timestamped(
    url: &str,
    renderer: &Renderer,
    ctx: &selo::documents::RideHailingDocumentContext<'_>,
    keys: &selo::signing::keys::Keys,
    info: &SignatureInfo<'_>,
    payload: &TokenPayload,
    now: DateTime<Utc>,
) {
    use selo::signing::timestamp::{Fallback, Timestamper, TsaSettings};
    let tsa = Timestamper::new(TsaSettings {
        url: url.to_owned(),
        credentials: None,
        timeout: std::time::Duration::from_secs(10),
        policy: None,
        fallback: Fallback::Refuse,
    })
    .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut bytes = Vec::new();
    bench("sticker: the same + timestamp (TSA)", 100, || {
        let t = token::sign(payload, &keys.active);
        let qr = Qr::sticker(&format!("https://selo.example.test/v/{t}")).unwrap();
        let inputs = ctx.sticker_inputs("K7Q2-9XHM", &qr);
        let pdf = renderer
            .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), now)
            .unwrap();
        let prepared = pades::prepare_signature(&pdf, &keys.pdf_signer(), info, true).unwrap();
        let stamp = runtime.block_on(tsa.stamp(prepared.value())).unwrap();
        bytes = prepared.finish(Some(&stamp.token)).unwrap();
    });
    println!(
        "{:<40} {} bytes",
        "  sticker PDF size, timestamped",
        bytes.len()
    );
    bench("  of which the authority's round trip", 100, || {
        std::hint::black_box(runtime.block_on(tsa.stamp(b"assinatura")).unwrap());
    });
    // `selo documents ltv`'s work on one file: verify, document timestamp, verify again (the
    // municipal chain names no revocation data, so no DSS is fetched).
    let revocation =
        selo::signing::revocation::RevocationFetcher::new(std::time::Duration::from_secs(10))
            .unwrap();
    let archiver = selo::issuance::archive::Archiver {
        keys,
        tsa: &tsa,
        revocation: &revocation,
    };
    let mut archived_pdf = Vec::new();
    bench("archive it: + document timestamp (TSA)", 100, || {
        archived_pdf = runtime.block_on(archiver.archive(&bytes)).unwrap().pdf;
    });
    println!(
        "{:<40} {} bytes",
        "  sticker PDF size, archived",
        archived_pdf.len()
    );
}

/// The memory target: the process RSS after 10,000 sticker renders.
fn rss_after_renders(
    renderer: &Renderer,
    ctx: &selo::documents::RideHailingDocumentContext<'_>,
    now: DateTime<Utc>,
) {
    let qr = Qr::sticker("https://selo.example.test/v/sample").unwrap();
    let inputs = ctx.sticker_inputs("K7Q2-9XHM", &qr);
    for i in 0..10_000 {
        // Vary the input so the engine cannot serve every render from its cache.
        let mut inputs = inputs.clone();
        inputs["code"] = serde_json::json!(format!("{:04}-TEST", i % 10_000));
        std::hint::black_box(
            renderer
                .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), now)
                .unwrap(),
        );
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmRSS"))
        .unwrap_or("VmRSS: unknown");
    println!(
        "{:<40} {}",
        "RSS after 10,000 sticker renders",
        rss.trim_start_matches("VmRSS:").trim()
    );
}
