-- A verification code names one document across both document tables (the ride-hailing
-- authorization and sticker in `documents`, every other kind in `register_documents`), so a
-- typed code can never find the wrong document. Every insert claims its code here.
CREATE TABLE verification_codes (
    code TEXT PRIMARY KEY NOT NULL
);
INSERT INTO verification_codes (code)
    SELECT verification_code FROM documents
    UNION SELECT verification_code FROM register_documents;
CREATE TRIGGER documents_claim_code AFTER INSERT ON documents
BEGIN INSERT INTO verification_codes (code) VALUES (NEW.verification_code); END;
CREATE TRIGGER register_documents_claim_code AFTER INSERT ON register_documents
BEGIN INSERT INTO verification_codes (code) VALUES (NEW.verification_code); END;
CREATE TRIGGER verification_codes_append_only_u BEFORE UPDATE ON verification_codes
BEGIN SELECT RAISE(ABORT, 'verification codes are append-only'); END;
CREATE TRIGGER verification_codes_append_only_d BEFORE DELETE ON verification_codes
BEGIN SELECT RAISE(ABORT, 'verification codes are append-only'); END;
