-- Each document records the version of the municipality profile (the city's facts
-- and signers it states) under which it was issued. NULL: issued before profiles existed.
ALTER TABLE documents ADD COLUMN profile_version TEXT;
