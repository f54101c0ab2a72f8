-- Drivers' names as a search for part of a name reads them (lower case, without diacritics:
-- the same folding as the search's), indexed by their trigrams, so that the search finds its
-- rows without reading the whole register. Kept by the triggers below; the expression must
-- stay the one `storage::search` folds with (a unit test compares them).
CREATE VIRTUAL TABLE driver_names USING fts5(folded, id UNINDEXED, tokenize = 'trigram');
INSERT INTO driver_names (folded, id) SELECT REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n'), id FROM drivers;
CREATE TRIGGER driver_names_insert AFTER INSERT ON drivers
BEGIN
    INSERT INTO driver_names (folded, id) VALUES (REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(NEW.name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n'), NEW.id);
END;
CREATE TRIGGER driver_names_update AFTER UPDATE OF name ON drivers
BEGIN
    DELETE FROM driver_names WHERE id = OLD.id;
    INSERT INTO driver_names (folded, id) VALUES (REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(NEW.name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n'), NEW.id);
END;
CREATE TRIGGER driver_names_delete AFTER DELETE ON drivers
BEGIN
    DELETE FROM driver_names WHERE id = OLD.id;
END;
