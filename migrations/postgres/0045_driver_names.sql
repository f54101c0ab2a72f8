-- Drivers' names as a search for part of a name reads them (lower case, without diacritics:
-- the same folding as the search's), indexed by their trigrams, so that the search finds its
-- rows without reading the whole register. Kept by the triggers below; the expression must
-- stay the one `storage::search` folds with (a unit test compares them).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE driver_names (
    id TEXT PRIMARY KEY NOT NULL,
    folded TEXT NOT NULL
);
INSERT INTO driver_names (id, folded) SELECT id, REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n') FROM drivers;
CREATE INDEX driver_names_trigrams ON driver_names USING gin (folded gin_trgm_ops);
CREATE FUNCTION selo_driver_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM driver_names WHERE id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO driver_names (id, folded) VALUES (NEW.id, REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(NEW.name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n'));
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER driver_names AFTER INSERT OR UPDATE OF name OR DELETE ON drivers
    FOR EACH ROW EXECUTE FUNCTION selo_driver_names();
