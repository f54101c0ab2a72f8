-- The back office's register lists read newest first a page at a time, and its search finds
-- records by identifier: each reads an index, so neither sorts nor scans a whole register as it
-- grows.
CREATE INDEX drivers_listed ON drivers (created_at DESC, id);
CREATE INDEX vehicles_listed ON vehicles (created_at DESC, id);
CREATE INDEX vehicles_plate ON vehicles (plate);
CREATE INDEX app_authorizations_listed ON app_authorizations (granted_at DESC, id);
CREATE INDEX platforms_listed ON platforms (created_at DESC, id);
CREATE INDEX app_infraction_autos_listed ON app_infraction_autos (drawn_up_at DESC, id);
CREATE INDEX charter_companies_listed ON charter_companies (created_at DESC, id);
CREATE INDEX charter_vehicles_listed ON charter_vehicles (created_at DESC, id);
CREATE INDEX charter_drivers_listed ON charter_drivers (created_at DESC, id);
CREATE INDEX charter_drivers_cpf ON charter_drivers (cpf);
CREATE INDEX charter_termos_listed ON charter_termos (created_at DESC, id);
CREATE INDEX charter_autos_listed ON charter_autos (created_at DESC, id);
CREATE INDEX documents_listed ON documents (issued_at DESC, id);
CREATE INDEX documents_number ON documents (number);
