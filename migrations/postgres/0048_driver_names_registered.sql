-- A search for part of a name shows the fifty newest drivers that match; a part shared by
-- tens of thousands of them ("silva") made PostgreSQL join every match to a read of the whole
-- drivers table before keeping fifty. The names now keep when their driver was registered,
-- so the search takes the newest fifty matches from the names alone and reads only those
-- drivers. The store writes a name right after its driver, in the same transaction; the
-- trigger copies the driver's registration, so the statement that writes a name is the same
-- on both backends.
ALTER TABLE driver_names ADD COLUMN created_at TIMESTAMPTZ;
UPDATE driver_names n SET created_at = d.created_at FROM drivers d WHERE d.id = n.id;
ALTER TABLE driver_names ALTER COLUMN created_at SET NOT NULL;
CREATE FUNCTION selo_driver_names_registered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT created_at INTO NEW.created_at FROM drivers WHERE id = NEW.id;
    RETURN NEW;
END;
$$;
CREATE TRIGGER driver_names_registered BEFORE INSERT ON driver_names
    FOR EACH ROW EXECUTE FUNCTION selo_driver_names_registered();
