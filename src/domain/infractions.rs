//! Infraction catalogues as a legal basis writes them (`[[infractions]]`): read entry by entry,
//! each checked, every problem listed for the official who sent the file. Each law's entry
//! (its fields and what they mean) is its own: the ride-hailing law's in
//! `ride_hailing::infractions`, the charter law's in `charter::infractions`.

/// One entry of a law's catalogue, as the reader needs it.
pub trait CatalogueEntry: serde::de::DeserializeOwned {
    fn id(&self) -> &str;
    fn article(&self) -> &str;
    fn description(&self) -> &str;
    /// What else is wrong with the entry (`at` names it).
    fn problems(&self, _at: &str, _out: &mut Vec<String>) {}
}

/// Whether `s` has text and at most `max` bytes.
pub fn text_ok(s: &str, max: usize) -> bool {
    !s.trim().is_empty() && s.len() <= max
}

/// Reads the `[[infractions]]` of a basis file, each checked; every problem is pushed to
/// `out` (in Portuguese, naming the entry by its position and id): an empty catalogue, an id
/// that is not a rule id or appears twice, an empty citation or description, and what the
/// entry's own fields get wrong.
pub fn parse_catalogue<T: CatalogueEntry>(raw: &[toml::Value], out: &mut Vec<String>) -> Vec<T> {
    if raw.is_empty() {
        out.push("infractions: o catálogo de infrações não pode ser vazio.".into());
    }
    let mut catalogue: Vec<T> = Vec::new();
    for (i, value) in raw.iter().enumerate() {
        let id = value.get("id").and_then(toml::Value::as_str).unwrap_or("");
        let at = format!("infractions[{}] ({id})", i + 1);
        let entry: T = match value.clone().try_into() {
            Ok(entry) => entry,
            Err(e) => {
                out.push(format!("{at}: {}", e.message()));
                continue;
            }
        };
        if !super::requirements::is_rule_id(entry.id()) {
            out.push(format!(
                "{at}.id: identificador de regra em maiúsculas, algarismos e hífens (ex.: APP-ART26-IV)."
            ));
        }
        if catalogue.iter().any(|o| o.id() == entry.id()) {
            out.push(format!("{at}.id: {} repetida no catálogo.", entry.id()));
        }
        if !text_ok(entry.article(), 120) {
            out.push(format!("{at}.article: a citação, de 1 a 120 caracteres."));
        }
        if !text_ok(entry.description(), 400) {
            out.push(format!("{at}.description: de 1 a 400 caracteres."));
        }
        entry.problems(&at, out);
        catalogue.push(entry);
    }
    catalogue
}
