-- Versions of the legal bases activated by an official, each from a date
-- with the act that enacts it. The repository's files are the first version of each law;
-- these rows add the later ones (the file as sent, its SHA-256). Append-only: a version is
-- replaced by activating another, never edited. Each activation is also an event.
CREATE TABLE legal_basis_versions (
    version TEXT PRIMARY KEY,
    law TEXT NOT NULL CHECK (law IN ('ride_hailing', 'charter')),
    effective_from TEXT NOT NULL,
    source TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    act_kind TEXT NOT NULL,
    act_number TEXT NOT NULL,
    act_date TEXT NOT NULL,
    activated_at TEXT NOT NULL,
    activated_by TEXT NOT NULL,
    UNIQUE (law, effective_from)
);
CREATE TRIGGER legal_basis_versions_append_only_u BEFORE UPDATE ON legal_basis_versions
BEGIN SELECT RAISE(ABORT, 'legal_basis_versions are append-only'); END;
CREATE TRIGGER legal_basis_versions_append_only_d BEFORE DELETE ON legal_basis_versions
BEGIN SELECT RAISE(ABORT, 'legal_basis_versions are append-only'); END;
