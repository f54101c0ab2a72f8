//! Migrations whose comments were reworded after databases had applied them. sqlx records
//! each applied migration's SHA-384 and refuses to start when a file no longer matches it; the
//! SQL these files run is unchanged, so a database that applied the former text has its
//! record brought up to the current text before migrating — only where the recorded checksum
//! is exactly the former one, so any other difference still stops the start.

use sqlx::migrate::Migrator;

/// (version, SHA-384 of the former text) of each reworded SQLite migration.
pub(crate) const SQLITE: &[(i64, &str)] = &[
    (
        15,
        "9082e7de56c992b0be86aa0b4477d08739ee34e805bcb67bdf326115d526b2985bdd86d0eacb656ca987b47b561e08a4",
    ),
    (
        16,
        "05e711c0eb922cfa6e6f597f1189142d47b30337470fb5a4320d7fa550fc6cb1bec27ff989062bcebf971c0d75ced9e8",
    ),
    (
        17,
        "ad23894aa324fb6a17f99bd424efdd169f2059b478d1ce592cc0fa7cfa828c538dd6941ad763004a60355e29bcbc03b5",
    ),
    (
        18,
        "48e9e344f4d4b623d9b2afbf06e57cbcd3c67425590f212797507701649150b24e45d5ec5f7466251f45ace16a147b7b",
    ),
    (
        19,
        "ed4c082fd5661ef546509aa6fdfaef9b120dcb7a5b6cd611e4ca9b6fd64ed6ffc16733518bec3221e5cfa04db6d8fbea",
    ),
    (
        20,
        "3006d72e905f89c8259fcaa33989927b8f76f6f6a58de029d14306a05d4d82aa65ffb1e525524c0a56b984fb9b18c16f",
    ),
    (
        21,
        "517bd8df48d8a79c03045b20fbc865cd1b3268bc52b00f0697370c8f82bfe9a7e2092b0f6068cbf78458fd87f843ef3b",
    ),
    (
        22,
        "7b63345c7761c24bfa6e8579ee043efb6be6abe708734bc5bc8877fc51200e06fd01787a0c6eff0bb6b215909297dc2d",
    ),
    (
        23,
        "7a53d81bc4883052c613ebdcc79455f7cc879f878b76b5106bed878aa462ef7ce3af641a9bd2f6ebab08775cf9d674c4",
    ),
    (
        24,
        "a53328908b721249dbe6e3b2cd21396328871d8a45c8f0993037bdf7bfcca128b1a3c08c32b0865bc2cc88293e32ec69",
    ),
];

/// The same for PostgreSQL.
pub(crate) const POSTGRES: &[(i64, &str)] = &[
    (
        15,
        "2592ab55deefe03cae43fa738053d2583df141a25e6dd1395df8164362859106e39cabaca704a6a810216542a398b448",
    ),
    (
        16,
        "12b62f8f004d9efcb3d8198bb57a8ea8783864d5d729c47f75f4b29378e40cdfe2e06744b845b56169d2496c7473aa95",
    ),
    (
        17,
        "e8fe6155274cd2171ca28c704a049ef09a199eafc3c2407bcae51466fe2247763b9942c6205af6ece1a9d80b951ca137",
    ),
    (
        18,
        "4c676d2203564390bba9bf972ba3468c920aa5d4688c61aad373b43ab6469e1ae7df00197cf49115f6785c20640d39d1",
    ),
    (
        19,
        "ed4c082fd5661ef546509aa6fdfaef9b120dcb7a5b6cd611e4ca9b6fd64ed6ffc16733518bec3221e5cfa04db6d8fbea",
    ),
    (
        20,
        "3006d72e905f89c8259fcaa33989927b8f76f6f6a58de029d14306a05d4d82aa65ffb1e525524c0a56b984fb9b18c16f",
    ),
    (
        21,
        "061ae2949d38b0f7b7147ef3c68a313b79e9b04425847d8cd8e9f6b79117d3e70dcd742a3705b9acad7aa660a93dcc5d",
    ),
    (
        22,
        "7b63345c7761c24bfa6e8579ee043efb6be6abe708734bc5bc8877fc51200e06fd01787a0c6eff0bb6b215909297dc2d",
    ),
    (
        23,
        "4a2ba91d0df92105cf909f8cda96d25281e7732a7ac34d297e154237b94ac9072794d2ee0103fa6759972fff28733cb5",
    ),
    (
        24,
        "6a217d5e52c23d85d5fa8f4c6bc3cab6fe54cf86014d235a58ecaf12e3e956d704b3b107690ebb7ee309e333301b45f1",
    ),
];

/// (version, former checksum, current checksum) of each reworded migration of `migrator`.
pub(crate) fn updates(migrator: &Migrator, former: &[(i64, &str)]) -> Vec<(i64, Vec<u8>, Vec<u8>)> {
    former
        .iter()
        .filter_map(|(version, hex)| {
            let current = migrator.iter().find(|m| m.version == *version)?;
            let old: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                .collect::<Result<_, _>>()
                .ok()?;
            (old != current.checksum.as_ref()).then(|| (*version, old, current.checksum.to_vec()))
        })
        .collect()
}

/// The statement that brings one record up to date.
pub(crate) const UPDATE: &str =
    "UPDATE _sqlx_migrations SET checksum = $1 WHERE version = $2 AND checksum = $3";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reworded_migration_has_a_new_text_and_a_well_formed_former_checksum() {
        for (migrator, former) in [
            (&crate::storage::sqlite::MIGRATOR, SQLITE),
            (&crate::storage::postgres::MIGRATOR, POSTGRES),
        ] {
            assert_eq!(updates(migrator, former).len(), former.len());
            for (_, hex) in former {
                assert_eq!(hex.len(), 96);
            }
        }
    }
}
