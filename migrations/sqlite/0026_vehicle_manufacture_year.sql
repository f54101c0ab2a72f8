-- The year of manufacture printed on the CRLV, beside the model year: a legal basis may count
-- a car's age from either. Unknown (NULL) for cars registered before it was asked.
ALTER TABLE vehicles ADD COLUMN manufacture_year INTEGER;
