//! The request bodies the suites share (the integration suite and the browser target, which
//! includes this file): a driver and a car of the ride-hailing law, a charter company with its
//! art. 7 checklist, a bus. Each test changes what it needs on the JSON it gets.

use serde_json::{Value, json};

/// The four criminal-record certificates, clear (APP-ART12-III).
pub fn clear_certificates() -> Value {
    json!(["estadual_1", "estadual_2", "federal_1", "federal_2"]
        .iter()
        .map(|c| json!({"court": c, "issued_on": "2025-06-01", "valid_until": "2028-12-31", "clear": true}))
        .collect::<Vec<_>>())
}

pub fn driver_body(cpf: &str, cnh: &str) -> Value {
    json!({
        "name": "Maria da Silva Souza",
        "cpf": cpf,
        "cnh": {"number": cnh, "category": "B", "first_license_date": "2015-03-10", "ear": true, "expires_on": "2030-01-01"},
        "criminal_certificates": clear_certificates(),
    })
}

pub fn vehicle_body(plate: &str, renavam: &str) -> Value {
    json!({
        "plate": plate, "renavam": renavam, "make": "Chevrolet", "model": "Onix Plus", "color": "Prata",
        "model_year": 2022, "doors": 4, "air_conditioning": true, "capacity_including_driver": 5,
        "registration_municipality_ibge": "5101803",
        // Art. 15: a car rented from a rental company serves any driver.
        "owner_type": "locadora_pj", "owner_document": "11.222.333/0001-81"
    })
}

/// The items of the art. 7 checklist: I a–g and II a–c (no validity), then the five
/// certidões negativas (valid until `certificates_until`).
pub const CHECKLIST_ITEMS: [&str; 15] = [
    "contrato_social",
    "registro_junta_comercial",
    "estatuto_alteracoes",
    "cartao_cnpj",
    "comprovante_endereco",
    "alvara_funcionamento",
    "garagem",
    "equipe_manutencao_limpeza",
    "escritorio_atendimento",
    "licencas_ambientais",
    "cnd_federal",
    "cnd_estadual",
    "cnd_municipal",
    "crf_fgts",
    "cndt",
];

fn proof(valid_until: Option<&str>) -> Value {
    json!({ "reference": "doc", "issued_on": "2025-01-02", "valid_until": valid_until })
}

pub fn checklist(certificates_until: &str) -> Value {
    let mut c = serde_json::Map::new();
    for (i, item) in CHECKLIST_ITEMS.iter().enumerate() {
        let until = (i >= 10).then_some(certificates_until);
        c.insert((*item).into(), proof(until));
    }
    Value::Object(c)
}

pub fn company_body(cnpj: &str, certificates_until: &str) -> Value {
    json!({
        "cnpj": cnpj,
        "name": "Araguaia Fretamentos Ltda.",
        "address": "Av. Ministro João Alberto, 100, Barra do Garças-MT",
        "phone": "(66) 3401-0000",
        "email": "contato@araguaia.example",
        "modality": "continuo",
        "protocol": "SIS-2025/0042",
        "applied_on": "2025-05-20",
        "checklist": checklist(certificates_until),
    })
}

/// A bus of the company with CNPJ `owner_cnpj`, its ITV of 02/05/2025 and insurance to 2026.
pub fn bus_body(
    plate: &str,
    renavam: &str,
    kind: &str,
    first_registration: &str,
    owner_cnpj: &str,
) -> Value {
    json!({
        "plate": plate,
        "renavam": renavam,
        "make": "Marcopolo",
        "model": "Volare W9",
        "kind": kind,
        "doors": 2,
        "has_turnstile": false,
        "seated_capacity": 20,
        "model_year": 2015,
        "first_registration_date": first_registration,
        "owner_cnpj": owner_cnpj,
        "ownership_proof": "crv_e",
        "crlv_year": 2025,
        "insurance": { "policy": "RC-1", "insurer": "Seguradora Exemplo", "valid_from": "2025-01-01", "valid_to": "2026-12-31" },
        "itv_report_date": "2025-05-02",
        "itv_provider": "ITV Credenciada Ltda.",
    })
}
