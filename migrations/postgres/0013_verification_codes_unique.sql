-- A verification code names one document across both document tables (the ride-hailing
-- authorization and sticker in `documents`, every other kind in `register_documents`), so a
-- typed code can never find the wrong document. Every insert claims its code here.
CREATE TABLE verification_codes (
    code TEXT PRIMARY KEY
);
INSERT INTO verification_codes (code)
    SELECT verification_code FROM documents
    UNION SELECT verification_code FROM register_documents;
CREATE FUNCTION selo_claim_code() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO verification_codes (code) VALUES (NEW.verification_code);
    RETURN NEW;
END;
$$;
CREATE TRIGGER documents_claim_code AFTER INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION selo_claim_code();
CREATE TRIGGER register_documents_claim_code AFTER INSERT ON register_documents
    FOR EACH ROW EXECUTE FUNCTION selo_claim_code();
CREATE TRIGGER verification_codes_append_only BEFORE UPDATE OR DELETE ON verification_codes
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
