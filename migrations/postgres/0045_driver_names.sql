-- Drivers' names as a search for part of a name reads them (lower case, without diacritics),
-- indexed by their trigrams, so that the search finds its rows without reading the whole
-- register. A driver's row is written once: the store adds its folded name here in the same
-- transaction (`Store::insert_driver`); the names already registered are folded below with
-- the expression the search's own folding mirrors (a unit test compares them). Not kept by a
-- trigger on insert: a trigger's SQL is part of the schema, and this expression is deeper than
-- other SQLite builds (the sqlite3 shell's) can parse.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE driver_names (
    id TEXT PRIMARY KEY NOT NULL,
    folded TEXT NOT NULL
);
INSERT INTO driver_names (id, folded) SELECT id, REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n') FROM drivers;
CREATE INDEX driver_names_trigrams ON driver_names USING gin (folded gin_trgm_ops);
CREATE FUNCTION selo_driver_names_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM driver_names WHERE id = OLD.id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER driver_names_delete AFTER DELETE ON drivers
    FOR EACH ROW EXECUTE FUNCTION selo_driver_names_delete();
