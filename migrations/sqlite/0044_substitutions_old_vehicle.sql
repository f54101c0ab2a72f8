-- A car's replacements by the car replaced: the change log's triggers on vehicles and
-- authorizations look a car up on both sides of a replacement, and without this index read
-- every replacement of the register on each write.
CREATE INDEX app_vehicle_substitutions_old ON app_vehicle_substitutions (old_vehicle_id);
