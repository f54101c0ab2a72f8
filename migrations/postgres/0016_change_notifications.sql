-- Several nodes on one database. Every committed change to the register notifies
-- channel `selo_register` (payload: the table), so every node drops what it cached from the
-- register (decreed days, verification answers) at once. Statement-level triggers on every
-- table except the officials' accounts and sessions, which no verification reads.
CREATE FUNCTION selo_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('selo_register', TG_TABLE_NAME);
    RETURN NULL;
END;
$$;

DO $$
DECLARE
    t text;
BEGIN
    FOR t IN
        SELECT tablename FROM pg_tables
        WHERE schemaname = current_schema()
          AND tablename NOT IN ('_sqlx_migrations', 'officials', 'official_tokens', 'official_sessions')
    LOOP
        EXECUTE format(
            'CREATE TRIGGER selo_notify_change AFTER INSERT OR UPDATE OR DELETE ON %I '
            'FOR EACH STATEMENT EXECUTE FUNCTION selo_notify_change()', t);
    END LOOP;
END;
$$;
