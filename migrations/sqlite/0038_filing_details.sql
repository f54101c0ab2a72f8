-- What an applicant states in a filing besides its files (a reported change of data: what
-- changed and when), as JSON; empty for the kinds that state nothing.
ALTER TABLE filings ADD COLUMN details TEXT;
