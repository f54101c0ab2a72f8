-- Sign-ins through the city's OpenID Connect provider (gov.br) under way: the SHA-256 of the
-- state (the browser holds the state itself in a cookie), the nonce the ID token must carry
-- and the PKCE verifier. Each is used once, within minutes.
CREATE TABLE applicant_oidc_requests (
    state_hash TEXT PRIMARY KEY NOT NULL,
    nonce TEXT NOT NULL,
    verifier TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
);

-- An applicant signed in through the provider carries the CPF it vouched for: one account a CPF.
CREATE UNIQUE INDEX applicants_cpf ON applicants (cpf) WHERE cpf IS NOT NULL;
