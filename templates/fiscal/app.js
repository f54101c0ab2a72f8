// The offline verifier. Verifies a selo QR token in this browser: the COSE_Sign1
// signature with WebCrypto Ed25519 against the published JWK Set, then the document's status
// from the signed status list. Both are kept on the device (Cache API), so a scan works with
// no signal; the page says how fresh the status is. Online, the service's own answer is shown
// ("online agora"). Formats: docs/verification-formats.md, "The QR token" and "The status list".
// The banner follows the connection as each request finds it, without a reload.
'use strict';

const KEYS_URL = '/.well-known/selo-keys.json';
const LIST_URL = '/api/v1/status-list';
const DATA_CACHE = 'selo-fiscal-dados';
const ONLINE_TIMEOUT_MS = 4000;

// ---- CBOR (RFC 8949): what the token and the list use --------------------------------------

function decodeCbor(bytes) {
  let pos = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (n) => { if (pos + n > bytes.length) throw new Error('cbor: truncated'); };
  const length = (ai) => {
    if (ai < 24) return ai;
    if (ai === 24) { need(1); return bytes[pos++]; }
    if (ai === 25) { need(2); const v = view.getUint16(pos); pos += 2; return v; }
    if (ai === 26) { need(4); const v = view.getUint32(pos); pos += 4; return v; }
    if (ai === 27) { need(8); const v = view.getUint32(pos) * 2 ** 32 + view.getUint32(pos + 4); pos += 8; return v; }
    throw new Error('cbor: indefinite or reserved length');
  };
  const item = (depth) => {
    if (depth > 16) throw new Error('cbor: too deep');
    need(1);
    const ib = bytes[pos++];
    const major = ib >> 5;
    const ai = ib & 31;
    switch (major) {
      case 0: return length(ai);
      case 1: return -1 - length(ai);
      case 2: { const n = length(ai); need(n); const v = bytes.slice(pos, pos + n); pos += n; return v; }
      case 3: { const n = length(ai); need(n); const v = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(pos, pos + n)); pos += n; return v; }
      case 4: { const n = length(ai); const a = []; for (let i = 0; i < n; i++) a.push(item(depth + 1)); return a; }
      case 5: { const n = length(ai); const m = new Map(); for (let i = 0; i < n; i++) { const k = item(depth + 1); m.set(k, item(depth + 1)); } return m; }
      case 6: { const tag = length(ai); return { tag, value: item(depth + 1) }; }
      default:
        if (ai === 20) return false;
        if (ai === 21) return true;
        if (ai === 22) return null;
        throw new Error('cbor: unsupported simple value');
    }
  };
  const value = item(0);
  if (pos !== bytes.length) throw new Error('cbor: trailing bytes');
  return value;
}

function bstrHead(n) {
  if (n < 24) return [0x40 | n];
  if (n < 256) return [0x58, n];
  if (n < 65536) return [0x59, n >> 8, n & 255];
  return [0x5a, (n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

// Sig_structure = ["Signature1", protected, h'', payload] (RFC 9052, 4.4).
function sigStructure(protectedBytes, payload) {
  const context = new TextEncoder().encode('Signature1');
  const parts = [[0x84, 0x60 | context.length], context, bstrHead(protectedBytes.length), protectedBytes, [0x40], bstrHead(payload.length), payload];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function base64url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// ---- COSE_Sign1 with the published keys --------------------------------------------------------

let keys = new Map(); // kid -> CryptoKey

async function loadKeys(jwks) {
  const found = new Map();
  for (const jwk of jwks.keys || []) {
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') continue;
    const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
    found.set(jwk.kid, key);
  }
  keys = found;
}

class Rejected extends Error {
  constructor(verdict) { super(verdict); this.verdict = verdict; }
}

// The payload of a tagged or untagged COSE_Sign1 whose signature a published key verifies.
async function openCose(bytes) {
  let cose;
  try { cose = decodeCbor(bytes); } catch (e) { throw new Rejected('malformed'); }
  if (cose && cose.tag !== undefined) { if (cose.tag !== 18) throw new Rejected('malformed'); cose = cose.value; }
  if (!Array.isArray(cose) || cose.length !== 4) throw new Rejected('malformed');
  const [prot, , payload, signature] = cose;
  if (!(prot instanceof Uint8Array) || !(payload instanceof Uint8Array) || !(signature instanceof Uint8Array)) throw new Rejected('malformed');
  let header;
  try { header = decodeCbor(prot); } catch (e) { throw new Rejected('malformed'); }
  if (!(header instanceof Map) || header.get(1) !== -8) throw new Rejected('malformed');
  const kidBytes = header.get(4);
  const kid = kidBytes instanceof Uint8Array ? new TextDecoder().decode(kidBytes) : '';
  const key = keys.get(kid);
  if (!key) throw new Rejected('unknown_key');
  const ok = await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, sigStructure(prot, payload));
  if (!ok) throw new Rejected('invalid_signature');
  try { return decodeCbor(payload); } catch (e) { throw new Rejected('malformed'); }
}

// ---- The status list ---------------------------------------------------------------------------

let list = null; // { iat, exp, docs: Map(hex id -> {s, u}), online: bool }

async function loadList(bytes, online) {
  const p = await openCose(bytes);
  if (!(p instanceof Map) || p.get('t') !== 'selo-status-list' || p.get('v') !== 1) throw new Error('not a status list');
  const docs = new Map();
  for (const d of p.get('docs') || []) docs.set(hex(d.get('d')), { s: d.get('s'), u: d.get('u') });
  list = { iat: p.get('iat'), exp: p.get('exp'), docs, online };
}

// Fetches `url` fresh (revalidating any HTTP cache) and keeps it; without network, the copy kept.
async function fresh(url) {
  const cache = await caches.open(DATA_CACHE);
  try {
    const res = await fetchWithin(url, { cache: 'no-cache' }, ONLINE_TIMEOUT_MS);
    if (!res.ok) throw new Error(String(res.status));
    await cache.put(url, res.clone());
    return { res, online: true };
  } catch (e) {
    const kept = await cache.match(url);
    if (!kept) throw new Error('no copy kept');
    return { res: kept, online: false };
  }
}

function fetchWithin(url, init, ms) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ms);
  return fetch(url, { ...init, signal: ctl.signal }).finally(() => clearTimeout(timer));
}

const cuiaba = (seconds, opts) => new Date(seconds * 1000).toLocaleString('pt-BR', { timeZone: 'America/Cuiaba', ...opts });
const when = (seconds) => `${cuiaba(seconds, { day: '2-digit', month: '2-digit' })} às ${cuiaba(seconds, { hour: '2-digit', minute: '2-digit' })}`;
const listExpired = () => !list || Date.now() / 1000 > list.exp;

// The banner: what the device holds, and whether the register answered the last request.
function showData(online) {
  const status = document.getElementById('data');
  if (!list) {
    status.textContent = 'Sem conexão e sem dados guardados: abra esta página uma vez com internet para baixar as chaves e a lista de situações.';
    status.className = 'data stale';
  } else if (listExpired()) {
    status.textContent = `Atenção: a lista de situações guardada é de ${when(list.iat)} e venceu em ${when(list.exp)}. Conecte-se para atualizar; até lá, a situação mostrada pode ter mudado.`;
    status.className = 'data stale';
  } else {
    status.textContent = online
      ? `Online: lista de situações atualizada (${when(list.iat)}), guardada para uso sem sinal.`
      : `Sem conexão: usando a lista de situações de ${when(list.iat)}, válida até ${when(list.exp)}.`;
    status.className = 'data';
  }
}

let online = false;
function setOnline(now) {
  if (now === online) return;
  online = now;
  // Back online: fetch the keys and the list again, which redraws the banner.
  if (now) refresh(); else showData(false);
}

async function refresh() {
  try {
    const k = await fresh(KEYS_URL);
    await loadKeys(await k.res.json());
    const l = await fresh(LIST_URL);
    await loadList(new Uint8Array(await l.res.arrayBuffer()), l.online);
    online = l.online;
  } catch (e) {
    online = false;
  }
  showData(online);
}

// ---- Verdicts ------------------------------------------------------------------------------------

const VERDICTS = {
  valid: ['ok', '✔', 'AUTORIZADO', 'Documento autêntico, emitido pela Prefeitura e em vigor.'],
  expired: ['bad', '✖', 'VENCIDO', 'Documento autêntico, mas a validade terminou.'],
  revoked: ['bad', '✖', 'REVOGADO', 'Documento autêntico, mas a autorização foi revogada ou cassada.'],
  suspended: ['bad', '✖', 'SUSPENSO', 'Documento autêntico, mas a autorização está suspensa.'],
  replaced: ['bad', '✖', 'VEÍCULO SUBSTITUÍDO', 'Documento autêntico, mas o veículo foi substituído: este documento não vale mais.'],
  irregular: ['bad', '✖', 'IRREGULAR', 'Documento autêntico, mas há exigência pendente ou vencida: o veículo não pode operar agora.'],
  outdated: ['warn', '⚠', 'DESATUALIZADA', 'Certidão autêntica, mas a situação certificada mudou desde a emissão.'],
  invalid_signature: ['bad', '✖', 'FALSO OU ALTERADO', 'A assinatura digital não confere: não foi emitido assim pela Prefeitura.'],
  unknown_key: ['bad', '✖', 'NÃO RECONHECIDO', 'Assinado por uma chave que a Prefeitura não publicou.'],
  unknown_document: ['bad', '✖', 'NÃO ENCONTRADO', 'Não há documento com estes dados no cadastro da Prefeitura.'],
  malformed: ['info', '!', 'CÓDIGO INVÁLIDO', 'Isto não é um código de documento do selo.'],
  mistyped: ['info', '✎', 'CÓDIGO DIGITADO INCORRETAMENTE', 'Um caractere foi digitado errado; confira o código impresso e digite de novo.'],
  status_unavailable: ['warn', '?', 'SITUAÇÃO INDISPONÍVEL', 'A assinatura é autêntica, mas a situação não pôde ser consultada.'],
  // Shown by this page only: a typed code without signal, checked for typos and nothing else.
  code_unchecked: ['info', '✎', 'CÓDIGO BEM FORMADO', 'Código bem formado; a situação só pode ser consultada com sinal. Nenhuma assinatura foi conferida: leia o QR code, que é verificado neste aparelho.'],
};

const KINDS = {
  app_sticker: 'Adesivo do para-brisa (aplicativo)', app_authorization: 'Autorização (aplicativo)',
  app_certidao: 'Certidão (aplicativo)', app_auto: 'Auto de infração (aplicativo)',
  charter_termo: 'Termo de Autorização (fretamento)', charter_selo: 'Selo de vistoria (fretamento)',
  charter_certidao: 'Certidão (fretamento)', charter_auto: 'Auto de infração (fretamento)',
};

function show(verdict, freshness, stale, rows, more) {
  const [cls, icon, headline, text] = VERDICTS[verdict] || VERDICTS.malformed;
  document.getElementById('result').hidden = false;
  document.getElementById('verdict').className = `verdict ${cls}`;
  document.getElementById('icon').textContent = icon;
  document.getElementById('headline').textContent = headline;
  document.getElementById('explanation').textContent = text;
  const f = document.getElementById('freshness');
  f.textContent = freshness;
  f.className = stale ? 'freshness stale' : 'freshness';
  const dl = document.getElementById('details');
  dl.replaceChildren();
  for (const [k, v] of rows) {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = v;
    dl.append(dt, dd);
  }
  dl.hidden = rows.length === 0;
  const m = document.getElementById('more');
  m.replaceChildren();
  if (more) m.append(more);
  m.hidden = !more;
  f.hidden = !freshness;
  document.getElementById('result').scrollIntoView({ block: 'start' });
}

const ddmmyyyy = (iso) => iso.split('-').reverse().join('/');

function todayInCuiaba() {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Cuiaba', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return parts; // YYYY-MM-DD
}

function offlineFreshness() {
  if (!list) return ['Sem lista de situações guardada: só a assinatura foi conferida.', true];
  if (listExpired()) return [`offline — lista de situações VENCIDA (de ${when(list.iat)}): a situação pode ter mudado; confirme quando houver sinal`, true];
  return [`offline — situação de ${when(list.iat)}`, false];
}

// Verifies token text (a URL of a QR code or the bare token).
async function verifyToken(raw) {
  const token = raw.trim().replace(/^.*\/v\//, '').replace(/[?#].*$/, '');
  let bytes;
  try { bytes = base64url(token); } catch (e) { show('malformed', '', false, []); return; }
  let p;
  try {
    p = await openCose(bytes);
  } catch (e) {
    if (e instanceof Rejected) { show(e.verdict, 'Assinatura conferida neste aparelho.', false, []); return; }
    throw e;
  }
  const get = (k) => (p instanceof Map ? p.get(k) : undefined);
  const id = get('d') instanceof Uint8Array ? hex(get('d')) : '';
  const validUntil = String(get('u') || '');
  const rows = [
    ['Documento', KINDS[get('k')] || String(get('k'))],
    ['Número', String(get('n') || '')],
    [String(get('k') || '').startsWith('app_') || get('k') === 'charter_selo' ? 'Placa' : 'Registro', String(get('p') || '')],
    ['Válido até', ddmmyyyy(validUntil)],
  ];
  const link = document.createElement('a');
  link.href = `/v/${token}`;
  link.textContent = 'Abrir a página completa da verificação (com o registro, para servidores conectados)';
  // Online: the service's live answer.
  try {
    const res = await fetchWithin(`/api/v1/verify/${token}`, { cache: 'no-store' }, ONLINE_TIMEOUT_MS);
    const v = await res.json().catch(() => null);
    // A live verdict only: a refusal (429) or an unreachable register falls back to the list.
    if (v && VERDICTS[v.verdict] && v.verdict !== 'status_unavailable') {
      const d = v.document || {};
      if (d.vehicle) rows.push(['Veículo', [d.vehicle.body, d.vehicle.make, d.vehicle.model, d.vehicle.color].filter(Boolean).join(' ')]);
      if (d.driver) rows.push(['Motorista', d.driver.first_name]);
      if (d.company) rows.push(['Empresa', d.company]);
      setOnline(true);
      show(v.verdict, 'online agora', false, rows, link);
      return;
    }
  } catch (e) { setOnline(false); /* no network: the list kept on the device */ }
  // Offline: the list kept on the device.
  let verdict = 'valid';
  const entry = list && list.docs.get(id);
  if (entry) {
    verdict = entry.s;
    if (entry.s === 'suspended' && entry.u) rows.push(['Suspenso até', ddmmyyyy(entry.u)]);
  } else if (validUntil && todayInCuiaba() > validUntil) {
    verdict = 'expired';
  }
  const [freshness, stale] = offlineFreshness();
  show(verdict, freshness, stale, rows);
}

// ---- Printed codes: Crockford base32 with a Luhn mod 32 check symbol ----------------------

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function normaliseCode(input) {
  const s = input.toUpperCase().replace(/[-\s.]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (![...s].every((c) => ALPHABET.includes(c))) return null;
  if (s.length === 8) return { code: `${s.slice(0, 4)}-${s.slice(4)}`, ok: true };
  if (s.length !== 9) return null;
  let sum = 0;
  [...s.slice(0, 8)].reverse().forEach((c, i) => {
    const v = ALPHABET.indexOf(c);
    const a = i % 2 === 0 ? v * 2 : v;
    sum += Math.floor(a / 32) + (a % 32);
  });
  const ok = ALPHABET[(32 - (sum % 32)) % 32] === s[8];
  return { code: `${s.slice(0, 3)}-${s.slice(3, 6)}-${s.slice(6)}`, ok };
}

async function verifyCode(raw) {
  const c = normaliseCode(raw);
  if (!c) { show('malformed', '', false, [['Digitado', raw]]); return; }
  if (!c.ok) { show('mistyped', 'Conferido neste aparelho.', false, [['Digitado', raw]]); return; }
  try {
    const res = await fetchWithin(`/api/v1/verify/code/${encodeURIComponent(c.code)}`, { cache: 'no-store' }, ONLINE_TIMEOUT_MS);
    const v = await res.json();
    if (!VERDICTS[v.verdict] || v.verdict === 'status_unavailable') throw new Error(v.detail || 'no verdict');
    setOnline(true);
    const d = v.document || {};
    const rows = [['Código', c.code]];
    if (d.number) rows.push(['Número', d.number], ['Placa ou registro', d.plate], ['Válido até', ddmmyyyy(d.valid_until)]);
    show(v.verdict, 'online agora', false, rows);
  } catch (e) {
    setOnline(false);
    show('code_unchecked', 'Sem conexão: o código impresso só é consultado com internet.', true, [['Código', c.code]]);
  }
}

function verifyInput(raw) {
  const text = raw.trim();
  if (!text) return;
  if (text.includes('/v/') || text.length > 40) verifyToken(text);
  else verifyCode(text);
}

// ---- Camera ------------------------------------------------------------------------------------

let scanning = false;

async function scan() {
  const video = document.getElementById('video');
  const note = document.getElementById('camera-note');
  if (scanning) return;
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  } catch (e) {
    note.hidden = false;
    note.textContent = 'A câmera não pôde ser aberta (permissão negada ou inexistente). Cole o endereço ou digite o código abaixo.';
    return;
  }
  scanning = true;
  video.hidden = false;
  video.srcObject = stream;
  await video.play();
  const detector = 'BarcodeDetector' in window ? new window.BarcodeDetector({ formats: ['qr_code'] }) : null;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const stop = () => { scanning = false; stream.getTracks().forEach((t) => t.stop()); video.hidden = true; };
  const tick = async () => {
    if (!scanning) return;
    let text = null;
    if (video.readyState >= 2) {
      if (detector) {
        const codes = await detector.detect(video).catch(() => []);
        if (codes.length) text = codes[0].rawValue;
      } else if (window.jsQR) {
        canvas.width = video.videoWidth; canvas.height = video.videoHeight;
        ctx.drawImage(video, 0, 0);
        const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
        const found = window.jsQR(img.data, img.width, img.height, { inversionAttempts: 'dontInvert' });
        if (found) text = found.data;
      }
    }
    if (text) { stop(); document.getElementById('entrada').value = text; verifyInput(text); return; }
    setTimeout(tick, 120);
  };
  tick();
}

// ---- Start ---------------------------------------------------------------------------------------

document.getElementById('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  verifyInput(document.getElementById('entrada').value);
});
document.getElementById('scan').addEventListener('click', scan);
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/fiscal/sw.js', { scope: '/fiscal/' });
window.seloReady = refresh();
setInterval(refresh, 10 * 60 * 1000);
window.addEventListener('online', refresh);
window.addEventListener('offline', () => setOnline(false));
