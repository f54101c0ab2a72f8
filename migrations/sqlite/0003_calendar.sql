-- Days without office hours decreed by the municipality (pontos facultativos, recesses,
-- holidays not computed by selo). Statutory holidays are computed, not stored.
CREATE TABLE calendar_days (
    date TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('municipal', 'ponto_facultativo', 'recess')),
    description TEXT NOT NULL,
    act TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);

-- Decreto nº 5.802/2025: year-end recess in every municipal office, 20/12/2025–04/01/2026.
WITH RECURSIVE d(day) AS (
    SELECT '2025-12-20'
    UNION ALL
    SELECT date(day, '+1 day') FROM d WHERE day < '2026-01-04'
)
INSERT INTO calendar_days (date, kind, description, act, created_at, created_by)
SELECT day, 'recess', 'Recesso de fim de ano nas repartições municipais', 'Decreto nº 5.802/2025',
       '2026-11-30 00:00:00+00:00', 'migration' FROM d;
