-- Drivers' names as a search for part of a name reads them (lower case, without diacritics),
-- indexed by their trigrams, so that the search finds its rows without reading the whole
-- register. A driver's row is written once: the store adds its folded name here in the same
-- transaction (`Store::insert_driver`); the names already registered are folded below with
-- the expression the search's own folding mirrors (a unit test compares them). Not kept by a
-- trigger on insert: a trigger's SQL is part of the schema, and this expression is deeper than
-- other SQLite builds (the sqlite3 shell's) can parse.
CREATE VIRTUAL TABLE driver_names USING fts5(folded, id UNINDEXED, tokenize = 'trigram');
INSERT INTO driver_names (folded, id) SELECT REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(name), 'á', 'a'), 'à', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'é', 'e'), 'è', 'e'), 'ê', 'e'), 'ë', 'e'), 'í', 'i'), 'ì', 'i'), 'î', 'i'), 'ï', 'i'), 'ó', 'o'), 'ò', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ú', 'u'), 'ù', 'u'), 'û', 'u'), 'ü', 'u'), 'ç', 'c'), 'ñ', 'n'), 'Á', 'a'), 'À', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'É', 'e'), 'È', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Í', 'i'), 'Ì', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ó', 'o'), 'Ò', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ú', 'u'), 'Ù', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ç', 'c'), 'Ñ', 'n'), id FROM drivers;
CREATE TRIGGER driver_names_delete AFTER DELETE ON drivers
BEGIN
    DELETE FROM driver_names WHERE id = OLD.id;
END;
