-- Courts' decisions that suspend provisions of a law (by rule id) from a date, or restore
-- them, recorded by an official. Append-only: a restoration is another row. Each is also an
-- event of the entity `legal_basis`.
CREATE TABLE legal_suspensions (
    id TEXT PRIMARY KEY,
    law TEXT NOT NULL CHECK (law IN ('ride_hailing', 'charter')),
    act TEXT NOT NULL CHECK (act IN ('suspensao', 'restabelecimento')),
    rules TEXT NOT NULL,
    court TEXT NOT NULL,
    case_number TEXT NOT NULL,
    decided_on DATE NOT NULL,
    effective_from DATE NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE TRIGGER legal_suspensions_append_only BEFORE UPDATE OR DELETE ON legal_suspensions
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
