// Every shape a secret takes on its way into the sync log or a diagnostics
// report, one row each: what must be gone and what must stay to be useful.
import { describe, expect, test } from 'vitest';
import { isCredentialKey, redactClipped, redactLogText, redactLogValue } from './log-redaction';

const OPAQUE = 'q7Hk2mZr9TbX4vLp8NwC'; // a secret of no known shape: found by value only
const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfYWRhIiwiZXhwIjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const BASIC = Buffer.from('ada:correct-horse').toString('base64');
const LIVE = 'svc_live_AbCdEfGhIjKlMnOpQrStUvWx';

interface Row {
  shape: string;
  text: string;
  gone: string[];
  kept?: string[];
  expected?: string;
  known?: string[];
}

const rows: Row[] = [
  // Authorization: everything after the scheme word.
  {
    shape: 'Authorization: Basic header line',
    text: `Authorization: Basic ${BASIC}`,
    gone: [BASIC],
    expected: 'Authorization: Basic [redacted]',
  },
  {
    shape: 'Authorization: DPoP header line',
    text: `authorization: DPoP ${OPAQUE}`,
    gone: [OPAQUE],
    expected: 'authorization: DPoP [redacted]',
  },
  {
    shape: 'Authorization: Bearer with an opaque token',
    text: `Authorization: Bearer ${OPAQUE}`,
    gone: [OPAQUE],
    expected: 'Authorization: Bearer [redacted]',
  },
  {
    shape: 'Authorization in JSON, scheme and token',
    text: `{"authorization":"Basic ${BASIC}","accept":"application/json"}`,
    gone: [BASIC],
    expected: '{"authorization":"Basic [redacted]","accept":"application/json"}',
  },
  {
    shape: 'Proxy-Authorization header line',
    text: `Proxy-Authorization: Digest username="ada", response="${OPAQUE}"`,
    gone: [OPAQUE, 'ada'],
  },
  {
    shape: 'a DPoP token outside a header',
    text: `sent DPoP ${OPAQUE} again`,
    gone: [OPAQUE],
    kept: ['again'],
  },
  { shape: 'Basic credentials outside a header', text: `tried Basic ${BASIC}`, gone: [BASIC] },
  {
    shape: 'the word Basic in prose stays',
    text: 'Basic information about the sync',
    gone: [],
    expected: 'Basic information about the sync',
  },
  // camelCase and other spellings of credential keys.
  {
    shape: 'refreshToken in JSON',
    text: `{"refreshToken":"${OPAQUE}","expiresIn":3600}`,
    gone: [OPAQUE],
    expected: '{"refreshToken":"[redacted]","expiresIn":3600}',
  },
  {
    shape: 'accessToken as key: value',
    text: `accessToken: ${OPAQUE}`,
    gone: [OPAQUE],
    expected: 'accessToken: [redacted]',
  },
  {
    shape: 'idToken in a query',
    text: `/cb?idToken=${OPAQUE}&state=s1`,
    gone: [OPAQUE],
    expected: '/cb?idToken=[redacted]&state=s1',
  },
  { shape: 'clientSecret in JSON', text: `{ "clientSecret" : "${OPAQUE}" }`, gone: [OPAQUE] },
  { shape: 'X-Api-Key header', text: `X-Api-Key: ${OPAQUE}`, gone: [OPAQUE] },
  // JSON inside JSON.
  {
    shape: 'JSON escaped inside a JSON string',
    text: `{"body":"{\\"refresh_token\\":\\"${OPAQUE}\\",\\"scope\\":\\"tasks:read\\"}"}`,
    gone: [OPAQUE],
    kept: ['tasks:read'],
  },
  {
    shape: 'JSON escaped twice',
    text: `"{\\\\\\"access_token\\\\\\":\\\\\\"${OPAQUE}\\\\\\"}"`,
    gone: [OPAQUE],
  },
  // Percent-encoding.
  {
    shape: 'a percent-encoded key name',
    text: `/oauth/token?refresh%5Ftoken=${OPAQUE}&client_id=svcc_desktop`,
    gone: [OPAQUE],
    kept: ['svcc_desktop'],
  },
  { shape: 'a percent-encoded token', text: `GET /x?t=svc%5Flive%5F${OPAQUE}`, gone: [OPAQUE] },
  { shape: 'a percent-encoded separator', text: `password%3D${OPAQUE}`, gone: [OPAQUE] },
  { shape: 'encoded twice', text: `next=%2Fcb%3Fcode%253D${OPAQUE}`, gone: [OPAQUE] },
  { shape: 'an encoded Authorization value', text: `authorization=Bearer%20${OPAQUE}`, gone: [OPAQUE] },
  // Passwords in URLs.
  {
    shape: 'user:password@ in a URL',
    text: `fetch https://ada:${OPAQUE}@proxy.example:8080/v1 failed`,
    gone: [OPAQUE],
    expected: 'fetch https://ada:[redacted]@proxy.example:8080/v1 failed',
  },
  // Cookies.
  {
    shape: 'every cookie in a Cookie header',
    text: `Cookie: theme=dark; session=${OPAQUE}; csrf=${OPAQUE}x`,
    gone: [OPAQUE, 'dark'],
    expected: 'Cookie: [redacted]',
  },
  { shape: 'a Set-Cookie header', text: `set-cookie: sid=${OPAQUE}; Path=/; HttpOnly`, gone: [OPAQUE] },
  {
    shape: 'cookies in JSON',
    text: `{"cookie":"a=1; sid=${OPAQUE}"}`,
    gone: [OPAQUE],
    expected: '{"cookie":"[redacted]"}',
  },
  // Environment variables.
  {
    shape: 'SVC_TOKEN=…',
    text: `SVC_TOKEN=${OPAQUE} npm run sync`,
    gone: [OPAQUE],
    expected: 'SVC_TOKEN=[redacted] npm run sync',
  },
  { shape: 'export SVC_TOKEN="…"', text: `export SVC_TOKEN="${OPAQUE}"`, gone: [OPAQUE] },
  // Leading spaces.
  { shape: 'a quoted value with a leading space', text: `{"refresh_token": "  ${OPAQUE}"}`, gone: [OPAQUE] },
  {
    shape: 'a quoted value with spaces inside',
    text: `{"password":"correct horse battery"}`,
    gone: ['horse', 'battery'],
  },
  { shape: 'a key with spaces after its colon', text: `token:    ${OPAQUE}`, gone: [OPAQUE] },
  {
    shape: 'a known secret stored with surrounding space',
    text: `refresh with ${OPAQUE} failed`,
    gone: [OPAQUE],
    known: [`  ${OPAQUE}\n`],
  },
  // Bare tokens.
  {
    shape: 'a bare svc_ opaque token',
    text: `got svc_9f8e7d6c5b4a39f8e7d6 back`,
    gone: ['9f8e7d6c5b4a39f8e7d6'],
    kept: ['back'],
  },
  {
    shape: 'a bare refresh token',
    text: `svcr_ZyXwVuTsRqPoNmLkJiHg was spent`,
    gone: ['ZyXwVuTsRqPoNmLkJiHg'],
  },
  { shape: 'a bare access token', text: `token ${LIVE}.`, gone: [LIVE.slice(9)] },
  {
    shape: 'a bare JWT',
    text: `id ${JWT} expired`,
    gone: [JWT.split('.')[1] ?? 'x', JWT.split('.')[2] ?? 'x'],
    kept: ['expired'],
  },
  { shape: 'the client id stays', text: 'client svcc_desktop', gone: [], expected: 'client svcc_desktop' },
  // rawHeaders arrays, printed.
  {
    shape: 'a rawHeaders array in text',
    text: `rawHeaders: ["Host","api.example","Authorization","Bearer ${OPAQUE}","Cookie","a=1; b=${OPAQUE}"]`,
    gone: [OPAQUE],
    kept: ['api.example'],
  },
  // Known secrets in the forms they travel in.
  { shape: 'a known opaque secret', text: `value ${OPAQUE} here`, gone: [OPAQUE], known: [OPAQUE] },
  {
    shape: 'a known secret percent-encoded',
    text: `t=ab%2Fcd%2B${OPAQUE}`,
    gone: [OPAQUE],
    known: [`ab/cd+${OPAQUE}`],
  },
  { shape: 'a known secret JSON-escaped', text: `"ab\\"${OPAQUE}"`, gone: [OPAQUE], known: [`ab"${OPAQUE}`] },
];

describe('redactLogText', () => {
  test.each(rows.map((row) => [row.shape, row] as const))('%s', (_shape, row) => {
    const out = redactLogText(row.text, row.known ?? []);
    for (const secret of row.gone) expect(out).not.toContain(secret);
    for (const word of row.kept ?? []) expect(out).toContain(word);
    if (row.expected !== undefined) expect(out).toBe(row.expected);
    // Redacting twice changes nothing more.
    expect(redactLogText(out, row.known ?? [])).toBe(out);
  });
});

describe('redactLogValue', () => {
  test.each([
    ['refreshToken', true],
    ['accessToken', true],
    ['idToken', true],
    ['clientSecret', true],
    ['SVC_TOKEN', true],
    ['X-Api-Key', true],
    ['set-cookie', true],
    ['Proxy-Authorization', true],
    ['codeVerifier', true],
    ['token_type', false],
    ['token_kind', false],
    ['error_code', false],
    ['expires_in', false],
  ])('the key %s names a credential: %s', (key, credential) => {
    expect(isCredentialKey(key)).toBe(credential);
  });

  test('values under camelCase credential keys are removed whole', () => {
    expect(
      redactLogValue({
        refreshToken: OPAQUE,
        nested: { clientSecret: { any: 'thing' }, idToken: JWT },
        attempt: 2,
      }),
    ).toEqual({
      refreshToken: '[redacted]',
      nested: { clientSecret: '[redacted]', idToken: '[redacted]' },
      attempt: 2,
    });
  });

  test("a rawHeaders array loses the value after each credential header's name", () => {
    expect(
      redactLogValue({
        rawHeaders: [
          'Host',
          'api.example',
          'Authorization',
          `DPoP ${OPAQUE}`,
          'Cookie',
          `a=1; b=${OPAQUE}`,
          'X-Api-Key',
          OPAQUE,
        ],
      }),
    ).toEqual({
      rawHeaders: [
        'Host',
        'api.example',
        'Authorization',
        'DPoP [redacted]',
        'Cookie',
        '[redacted]',
        'X-Api-Key',
        '[redacted]',
      ],
    });
  });

  test('strings inside are redacted with the known secrets', () => {
    expect(redactLogValue({ note: `saw ${OPAQUE}` }, [OPAQUE])).toEqual({ note: 'saw [redacted]' });
  });
});

describe('redactClipped', () => {
  const SECRET = 'Opaque!Known#Secret$0042-abc';

  test('a percent-encoded token inside a run of 100 000 characters is still redacted', () => {
    const run = `/v1/tasks/${'a'.repeat(100_000)}?next=${encodeURIComponent('svc_live_Hidden0123456789')}`;
    const out = redactLogText(`PATCH ${run} 412`);
    expect(out).not.toContain('Hidden0123456789');
    expect(out).not.toContain('Hidden0123456789'.slice(0, 8));
  });

  test('a line of a megabyte keeps its first characters and says it was cut', () => {
    const out = redactClipped(`PATCH /v1/tasks/${'a'.repeat(1_000_000)} 412`, 1000);
    expect(out).toHaveLength(1000);
    expect(out.startsWith('PATCH /v1/tasks/aaa')).toBe(true);
    expect(out.endsWith('…')).toBe(true);
  });

  test('a known secret cut by the first clip never shows, even when redacting before it pulls it into view', () => {
    // 22 JWTs of 395 characters shrink to `[redacted]` each, moving the text
    // after them ~8 500 characters to the left, inside the clip of 1000.
    const jwt = `eyJ${'h'.repeat(130)}.${'p'.repeat(130)}.${'s'.repeat(130)}`;
    const before = Array.from({ length: 22 }, () => jwt).join(' ');
    for (let shift = 0; shift < SECRET.length; shift += 7) {
      // Place the secret so the first clip (1000 + 8192) falls inside it.
      const filler = 'w '.repeat(Math.ceil((1000 + 8192 - before.length - 1 - shift) / 2));
      const text = `${before} ${filler}`.slice(0, 1000 + 8192 - shift) + `${SECRET} tail`;
      const out = redactClipped(`${text}${' more'.repeat(10)}`, 1000, [SECRET]);
      for (let length = 6; length <= SECRET.length; length += 1) {
        expect(out).not.toContain(SECRET.slice(0, length));
      }
    }
  });

  test('a short line is redacted whole and not marked as cut', () => {
    expect(redactClipped(`token ${SECRET} refused`, 1000, [SECRET])).toBe('token [redacted] refused');
  });
});
