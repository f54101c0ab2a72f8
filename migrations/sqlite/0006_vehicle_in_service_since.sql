-- Since when a car serves ride-hailing here (art. 2 §3 transitional rule); optional.
ALTER TABLE vehicles ADD COLUMN in_service_since TEXT;
