-- What a certidão certified at issue (status and items), to tell later whether it still holds.
ALTER TABLE register_documents ADD COLUMN facts TEXT;
