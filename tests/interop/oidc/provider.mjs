// A third-party OpenID Connect provider for the sign-in check: npm's oidc-provider, configured
// like gov.br's Login Único for selo (authorization code, PKCE required, client secret by HTTP
// Basic, RS256 ID tokens, `sub` = the CPF, the trust level in the claim `nivel`). Its one
// citizen is signed in and consents at once: the interaction answers without a form.
// Usage: node provider.mjs PORT REDIRECT_URI CPF EMAIL LEVELS   (LEVELS: e.g. "1,2")
import crypto from 'node:crypto';
import Provider from 'oidc-provider';

const [port, redirectUri, cpf, email, levels] = process.argv.slice(2);
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'interop', alg: 'RS256', use: 'sig' };

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: 'selo-interop',
    client_secret: 'segredo-interop',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: 'RS256',
  }],
  jwks: { keys: [jwk] },
  scopes: ['openid', 'email', 'profile', 'govbr_confiabilidades'],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name'],
    govbr_confiabilidades: ['nivel'],
  },
  // The scopes' claims go into the ID token itself, as gov.br's do.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['interop-only-cookie-key'] },
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email, email_verified: true, name: 'Cidadã de Teste', nivel: levels.split(',') };
      },
    };
  },
});

provider.use(async (ctx, next) => {
  if (!/^\/interaction\/[^/]+$/.test(ctx.path)) return next();
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  let result;
  if (details.prompt.name === 'login') {
    result = { login: { accountId: cpf } };
  } else {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    result = { consent: { grantId: await grant.save() } };
  }
  const to = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
  ctx.redirect(to);
});

provider.listen(Number(port), '127.0.0.1', () => console.log(`provider at http://127.0.0.1:${port}`));
