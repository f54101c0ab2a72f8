use super::*;
use crate::domain::ids::CnhCategory;
use crate::domain::legal_basis::{BasisFile as _, DRAFT_2023_FILE, RideHailingLegalBasis};
use crate::domain::ride_hailing::driver_record::{Ctb306Record, DriverRecord, FiledDocument};

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn parsed(text: &str) -> Result<Vec<Requirement>, Vec<String>> {
    let table: toml::Table = toml::from_str(text).unwrap();
    let raw = table
        .get("requirements")
        .and_then(toml::Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut out = Vec::new();
    let list = parse_requirements(&raw, &mut out);
    if out.is_empty() { Ok(list) } else { Err(out) }
}

fn car(model_year: i32, manufacture_year: Option<i32>) -> VehicleInput {
    VehicleInput {
        model_year,
        manufacture_year,
        doors: 4,
        air_conditioning: true,
        capacity_including_driver: 5,
        registration_municipality: IbgeCode::from_const(5_101_803),
    }
}

#[test]
fn every_kind_is_read_with_its_parameters_and_the_draft_is_expressed_in_them() {
    let draft = RideHailingLegalBasis::from_toml(DRAFT_2023_FILE).unwrap();
    let kinds: Vec<&str> = draft.requirements.iter().map(|r| r.kind.name()).collect();
    for k in [
        "license",
        "criminal_certificates",
        "no_infractions",
        "ctb306",
        "vehicle_age",
        "vehicle_doors",
        "vehicle_air_conditioning",
        "vehicle_capacity",
        "vehicle_registration",
    ] {
        assert!(kinds.contains(&k), "{k} missing from the draft: {kinds:?}");
    }
    // Every kind the module knows is one the file can name.
    for (name, _) in KINDS {
        let mut out = Vec::new();
        let _ = kind_of::<RequirementKind>(name, toml::Table::new());
        parse_requirements::<RequirementKind>(
            &[toml::Value::Table(toml::Table::from_iter([
                ("kind".to_owned(), toml::Value::String((*name).to_owned())),
                ("rule".to_owned(), toml::Value::String("X-1".into())),
                ("citation".to_owned(), toml::Value::String("art. 1º".into())),
            ]))],
            &mut out,
        );
        let params = KINDS.iter().find(|(k, _)| k == name).unwrap().1;
        assert_eq!(out.is_empty(), params.is_empty(), "{name}: {out:?}");
    }
}

#[test]
fn a_file_is_refused_with_every_problem_listed() {
    let text = r#"
[[requirements]]
kind = "flying_car"
rule = "X-1"
citation = "art. 1º"

[[requirements]]
kind = "vehicle_age"
rule = "X-2"
citation = ""
max_years = 10

[[requirements]]
kind = "document"
rule = "x 3"
citation = "art. 3º"
document = "inss"
label = "Inscrição no INSS"
max_age_days = 30
colour = "blue"
"#;
    let problems = parsed(text).unwrap_err();
    let all = problems.join("\n");
    assert!(all.contains("desconhecido `flying_car`"), "{all}");
    assert!(all.contains("falta o parâmetro `counted_from`"), "{all}");
    assert!(all.contains("requirements[2] (X-2): citation"), "{all}");
    assert!(all.contains("parâmetro desconhecido `colour`"), "{all}");
    assert!(all.contains("requirements[3] (x 3): rule"), "{all}");
    assert_eq!(problems.len(), 5, "{problems:?}");
    let zero =
        "[[requirements]]\nkind = \"vehicle_doors\"\nrule = \"X\"\ncitation = \"a\"\ndoors = 0\n";
    assert_eq!(
        parsed(zero).unwrap_err(),
        vec!["requirements[1] (X): doors: de 2 a 5 portas.".to_owned()]
    );
}

#[test]
fn the_age_of_a_car_counts_from_the_year_the_requirement_names() {
    let from_manufacture = parsed(
        "[[requirements]]\nkind = \"vehicle_age\"\nrule = \"L-VEIC\"\ncitation = \"art. [a definir]\"\ncounted_from = \"manufacture_year\"\nmax_years = 10\n",
    )
    .unwrap();
    let r = &from_manufacture[0];
    let today = d(2026, 6, 1);
    let mut out = Vec::new();
    // Made in 2015, model 2016: 11 years from manufacture in 2026 → refused with the file's
    // citation, though the draft (12 from the model year) accepts it.
    r.check_vehicle(&car(2016, Some(2015)), today, false, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].rule, "L-VEIC");
    assert_eq!(out[0].article, "art. [a definir]");
    assert_eq!(out[0].field, "vehicle.manufacture_year");
    out.clear();
    r.check_vehicle(&car(2017, Some(2016)), today, false, &mut out);
    assert!(out.is_empty(), "{out:?}");
    // Unknown year of manufacture: asked for, not guessed.
    r.check_vehicle(&car(2020, None), today, false, &mut out);
    assert_eq!(out[0].field, "vehicle.manufacture_year");
    out.clear();
    // The protection of a car in service lifts the limit.
    r.check_vehicle(&car(2010, Some(2009)), today, true, &mut out);
    assert!(out.is_empty());
    let draft = RideHailingLegalBasis::draft_2023();
    for req in &draft.requirements {
        req.check_vehicle(&car(2016, Some(2015)), today, false, &mut out);
    }
    assert!(out.is_empty(), "{out:?}");
}

fn driver(record: &DriverRecord) -> DriverInput<'_> {
    DriverInput {
        cnh_category: CnhCategory::B,
        ear: true,
        first_license_date: d(2015, 1, 1),
        record,
    }
}

#[test]
fn a_document_is_in_force_by_its_printed_validity_or_its_maximum_age() {
    let reqs = parsed(
        "[[requirements]]\nkind = \"document\"\nrule = \"L-INSS\"\ncitation = \"art. [a definir]\"\ndocument = \"inss\"\nlabel = \"Comprovante de inscrição no INSS\"\nmax_age_days = 90\n",
    )
    .unwrap();
    let r = &reqs[0];
    let today = d(2026, 6, 1);
    let check = |record: &DriverRecord| {
        let (mut out, mut review) = (Vec::new(), Vec::new());
        r.check_driver(
            &driver(record),
            today,
            today,
            MonthOverflow::LastDay,
            &mut out,
            &mut review,
        );
        out
    };
    let none = check(&DriverRecord::default());
    assert_eq!(
        none[0].message,
        "Falta o documento: Comprovante de inscrição no INSS."
    );
    assert_eq!(none[0].rule, "L-INSS");
    let filed = |issued_on, valid_until| DriverRecord {
        documents: vec![FiledDocument {
            document: "inss".into(),
            issued_on,
            valid_until,
        }],
        ..DriverRecord::default()
    };
    // 90 days from issue, inclusive: 03/03 + 90 = 01/06.
    assert!(check(&filed(d(2026, 3, 3), None)).is_empty());
    assert_eq!(check(&filed(d(2026, 3, 2), None)).len(), 1);
    // A printed validity prevails.
    assert!(check(&filed(d(2025, 1, 1), Some(d(2026, 12, 31)))).is_empty());
    assert_eq!(
        driver_documents(&reqs),
        vec![("inss", "Comprovante de inscrição no INSS")]
    );
}

#[test]
fn amb_25_a_prosecution_under_way_is_ignored_barred_or_reviewed_as_the_basis_reads() {
    let record = DriverRecord {
        ctb306: Some(Ctb306Record {
            final_conviction_on: None,
            sentence_extinguished_on: None,
        }),
        ..DriverRecord::default()
    };
    for (policy, failures, reviews) in [("ignore", 0, 0), ("bar", 1, 0), ("review", 0, 1)] {
        let reqs = parsed(&format!(
            "[[requirements]]\nkind = \"ctb306\"\nrule = \"APP-ART12-P1\"\ncitation = \"art. 12, §1º\"\nbar_years = 5\ncounted_from = \"sentence_extinguished\"\npending_prosecution = \"{policy}\"\n"
        ))
        .unwrap();
        let (mut out, mut review) = (Vec::new(), Vec::new());
        let today = d(2026, 6, 1);
        reqs[0].check_driver(
            &driver(&record),
            today,
            today,
            MonthOverflow::LastDay,
            &mut out,
            &mut review,
        );
        assert_eq!((out.len(), review.len()), (failures, reviews), "{policy}");
    }
}

#[test]
fn the_platforms_cap_counts_those_in_force() {
    let reqs = parsed(
        "[[requirements]]\nkind = \"platforms_cap\"\nrule = \"L-PLAT\"\ncitation = \"art. [a definir]\"\nmax = 10\n",
    )
    .unwrap();
    let mut out = Vec::new();
    reqs[0].check_platforms(9, &mut out);
    assert!(out.is_empty());
    reqs[0].check_platforms(10, &mut out);
    assert_eq!(out[0].rule, "L-PLAT");
    assert!(
        out[0].message.contains("limitado a 10"),
        "{}",
        out[0].message
    );
}

#[test]
fn the_cap_on_a_platforms_drivers_counts_its_current_links() {
    let reqs = parsed(
        "[[requirements]]\nkind = \"platform_drivers_cap\"\nrule = \"L-MOT\"\ncitation = \"art. [a definir]\"\nmax = 50\n",
    )
    .unwrap();
    assert_eq!(reqs[0].platform_drivers_cap(), Some(50));
    let mut out = Vec::new();
    reqs[0].check_platform_drivers(49, &mut out);
    assert!(out.is_empty());
    reqs[0].check_platform_drivers(50, &mut out);
    assert_eq!(out[0].rule, "L-MOT");
    assert!(out[0].message.contains("até 50"), "{}", out[0].message);
    assert!(
        parsed("[[requirements]]\nkind = \"platform_drivers_cap\"\nrule = \"L-MOT\"\ncitation = \"art. 1\"\nmax = 0\n")
            .is_err()
    );
}

mod driver_history;
