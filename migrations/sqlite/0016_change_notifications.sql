-- Change notifications between nodes exist on PostgreSQL only (LISTEN/NOTIFY,
-- migrations/postgres/0016). SQLite has one node, which knows its own commits: nothing here.
SELECT 1;
