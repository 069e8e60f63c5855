// The sync log on real SQLite files: bounded in rows (oldest pruned, across a
// reopen), searchable by words, level and kind with paging, clipped entries,
// and no token of any form reaching the file or the diagnostics report.
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { diagnosticsReport, pseudonymOf } from './diagnostics-report';
import { redactLogText } from './log-redaction';
import { SyncLog, type SyncLogEntryInput, syncLogFileFor } from './sync-log';
import { modeOf, usualUmaskWhileTesting } from '../../db/testing/file-modes';

const dirs: string[] = [];
const logs: SyncLog[] = [];

afterEach(() => {
  for (const log of logs.splice(0)) log.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openLog(options: ConstructorParameters<typeof SyncLog>[1] = {}, dir?: string) {
  const folder = dir ?? mkdtempSync(join(tmpdir(), 'sync-log-test-'));
  if (!dir) dirs.push(folder);
  let second = 0;
  const log = new SyncLog(join(folder, 'account.sync-log.db'), {
    now: () => new Date(Date.parse('2026-03-10T12:00:00.000Z') + 1000 * second++).toISOString(),
    ...options,
  });
  logs.push(log);
  return { log, dir: folder };
}

const request = (i: number, overrides: Partial<SyncLogEntryInput> = {}): SyncLogEntryInput => ({
  level: 'info',
  kind: 'request',
  message: `GET /v1/tasks?limit=100 → 200 in ${i} ms`,
  method: 'GET',
  path: '/v1/tasks?limit=100',
  status: 200,
  durationMs: i,
  requestId: `req_${i}`,
  operation: 'tasks.list',
  ...overrides,
});

describe('size', () => {
  test('keeps the newest entries up to the row bound, also after reopening the file', () => {
    const { log, dir } = openLog({ maxRows: 50, batchSize: 7 });
    for (let i = 1; i <= 200; i += 1) log.add(request(i));
    expect(log.count()).toBe(50);
    const page = log.query({ limit: 1000 });
    expect(page.entries.map((e) => e.requestId)).toEqual(
      Array.from({ length: 50 }, (_, k) => `req_${200 - k}`),
    );
    log.close();
    const again = openLog({ maxRows: 50 }, dir).log;
    for (let i = 201; i <= 210; i += 1) again.add(request(i));
    expect(again.count()).toBe(50);
    expect(again.query({ limit: 1 }).entries[0]?.requestId).toBe('req_210');
    expect(again.query({ limit: 1000 }).entries.at(-1)?.requestId).toBe('req_161');
  });

  test('a huge message or detail is clipped, so rows bound the file', () => {
    const { log } = openLog();
    log.add(request(1, { message: 'x'.repeat(50_000), detail: { blob: 'y'.repeat(50_000) } }));
    const [entry] = log.query().entries;
    expect(entry?.message.length).toBeLessThanOrEqual(1000);
    expect(JSON.stringify(entry?.detail).length).toBeLessThanOrEqual(2100);
  });

  test('entries added in one tick are written together on the next', async () => {
    const { log, dir } = openLog();
    log.add(request(1));
    await new Promise((resolve) => setImmediate(resolve));
    const reader = new SyncLog(join(dir, 'account.sync-log.db'));
    logs.push(reader);
    expect(reader.count()).toBe(1);
  });
});

describe('collection freshness', () => {
  test('last checked and last changed per collection survive pruning and reopening', () => {
    const { log, dir } = openLog({ maxRows: 5 });
    log.noteCollection('tasks', 'checked');
    log.noteCollection('tasks', 'changed');
    log.noteCollection('sprints', 'checked');
    for (let i = 1; i <= 20; i += 1) log.add(request(i));
    log.noteCollection('tasks', 'checked');
    expect(log.count()).toBe(5);
    const expected = [
      { collection: 'sprints', checkedAt: '2026-03-10T12:00:02.000Z', changedAt: null },
      { collection: 'tasks', checkedAt: '2026-03-10T12:00:23.000Z', changedAt: '2026-03-10T12:00:01.000Z' },
    ];
    expect(log.collections()).toEqual(expected);
    log.close();
    expect(openLog({}, dir).log.collections()).toEqual(expected);
  });
});

describe('search', () => {
  function seeded() {
    const { log } = openLog();
    log.add(request(1));
    log.add(
      request(2, {
        level: 'warn',
        kind: 'retry',
        status: 503,
        message: 'GET /v1/tasks → 503; retrying',
        requestId: 'req_retry',
      }),
    );
    log.add({
      level: 'warn',
      kind: 'conflict',
      message: 'task tsk_42: status changed on both sides',
      detail: { entity_id: 'tsk_42', fields: ['status'] },
    });
    log.add({
      level: 'error',
      kind: 'error',
      message: 'sync failed (poll-full): network unreachable',
      detail: { error_kind: 'network' },
    });
    log.add(request(3, { path: '/v1/tasks?filter%5Bq%5D=100%25_done', message: 'GET search 100%_done' }));
    return log;
  }

  test.each([
    { query: { text: 'tsk_42' }, ids: ['conflict'] },
    { query: { text: 'STATUS both' }, ids: ['conflict'] },
    { query: { text: 'req_retry' }, ids: ['retry'] },
    { query: { text: '503' }, ids: ['retry'] },
    { query: { text: 'network' }, ids: ['error'] },
    { query: { text: '100%_' }, ids: ['request'] },
    { query: { text: '%' }, ids: ['request'] },
    { query: { levels: ['warn', 'error'] as const }, ids: ['error', 'conflict', 'retry'] },
    { query: { kinds: ['request'] as const }, ids: ['request', 'request'] },
    { query: { kinds: ['request'] as const, text: 'req_1' }, ids: ['request'] },
    { query: { text: 'nothing-like-this' }, ids: [] },
  ])('query $query', ({ query, ids }) => {
    const log = seeded();
    expect(log.query(query).entries.map((e) => e.kind)).toEqual(ids);
  });

  test('pages backwards from the newest', () => {
    const { log } = openLog();
    for (let i = 1; i <= 5; i += 1) log.add(request(i));
    const first = log.query({ limit: 2 });
    expect(first.entries.map((e) => e.requestId)).toEqual(['req_5', 'req_4']);
    const second = log.query({ limit: 2, beforeId: first.nextBeforeId ?? 0 });
    expect(second.entries.map((e) => e.requestId)).toEqual(['req_3', 'req_2']);
    const third = log.query({ limit: 2, beforeId: second.nextBeforeId ?? 0 });
    expect(third).toEqual({ entries: [expect.objectContaining({ requestId: 'req_1' })], nextBeforeId: null });
  });
});

describe('redaction', () => {
  // Every form a credential takes, as the bare secret and where it would sit in text.
  const TOKENS = {
    live: 'svc_live_A1b2C3d4E5f6G7h8I9j0KkLlMmNn',
    test: 'svc_test_Z9y8X7w6V5u4T3s2R1q0PpOoNn',
    oldLive: 'tsk_live_Qq11Ww22Ee33Rr44Tt55Yy66',
    oldTest: 'tsk_test_Uu77Ii88Oo99Pp00Aa11Ss22',
    refresh: 'svcr_Dd33Ff44Gg55Hh66Jj77Kk88Ll99',
    dotted: 'svc_live_abc.DEF~ghi+jkl/mno=pqrStuV',
    opaqueBearer: 'b3arer.Opaque-Value_0123456789',
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYXJhIn0.c2lnbmF0dXJlLXNpZw',
    knownByValue: 'Opaque!Refresh#Value$2026-xyz',
    queryToken: 'QueryTokenValue987654321',
    jsonRefresh: 'JsonRefreshValue55554444',
    clientSecret: 'ClientSecretValue12121212',
  };
  const PLACES: Record<string, string>[] = [
    { message: `token ${TOKENS.live} refused` },
    { message: `test token ${TOKENS.test}` },
    { message: `old prefixes ${TOKENS.oldLive} and ${TOKENS.oldTest}` },
    { message: `refresh ${TOKENS.refresh} spent` },
    { message: `dotted ${TOKENS.dotted}` },
    { message: `percent-encoded ${encodeURIComponent(TOKENS.dotted)}` },
    { message: `Authorization: Bearer ${TOKENS.opaqueBearer}` },
    { message: `authorization=bearer ${TOKENS.jwt}` },
    { message: `refresh failed for ${TOKENS.knownByValue}` },
    { path: `/v1/me?access_token=${TOKENS.queryToken}&limit=5` },
    { message: `body {"refresh_token":"${TOKENS.jsonRefresh}","client_secret": "${TOKENS.clientSecret}"}` },
    { requestId: `req-${TOKENS.live}` },
    { operation: `auth.refresh ${TOKENS.refresh}` },
  ];

  /** Tokens any 6-character piece of whose body (after a known prefix), plain or percent-encoded, shows. */
  const leaks = (text: string): string[] =>
    Object.values(TOKENS).filter((token) => {
      const body = token.replace(/^(?:svc|tsk)_(?:live|test)_|^svcr_/, '');
      return [body, encodeURIComponent(body)].some((form) => {
        for (let at = 0; at + 6 <= form.length; at += 3)
          if (text.includes(form.slice(at, at + 6))) return true;
        return false;
      });
    });

  test('no token of any form reaches the log file, what queries return, or the diagnostics report', () => {
    const { log, dir } = openLog({ secrets: () => [TOKENS.knownByValue] });
    for (const place of PLACES) {
      log.add({ level: 'error', kind: 'auth', message: place.message ?? 'x', ...place });
    }
    log.add({
      level: 'info',
      kind: 'auth',
      message: 'detail carries them',
      detail: {
        access_token: TOKENS.live,
        nested: { refresh_token: TOKENS.refresh, list: [`Bearer ${TOKENS.jwt}`, TOKENS.oldTest] },
        header: `Authorization: Bearer ${TOKENS.opaqueBearer}`,
        secret: TOKENS.knownByValue,
      },
    });
    const entries = log.query({ limit: 1000 }).entries;
    expect(entries).toHaveLength(PLACES.length + 1);
    expect(leaks(JSON.stringify(entries))).toEqual([]);

    const report = diagnosticsReport({
      entries,
      context: { version: '1.0.0', note: `pasted ${TOKENS.test}` },
      people: [],
      secrets: [TOKENS.knownByValue],
      salt: log.salt,
      generatedAt: '2026-03-10T12:00:00.000Z',
    });
    expect(leaks(report)).toEqual([]);
    expect(report).toContain('[redacted]');

    log.close();
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1'));
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap(leaks)).toEqual([]);
  });

  test('the leak check itself catches a token left in clear', () => {
    expect(leaks(`oops ${TOKENS.refresh}`)).toEqual([TOKENS.refresh]);
    expect(leaks(`tail only: .DEF~ghi%2Bjkl%2Fmno`)).toEqual([TOKENS.dotted]);
    expect(leaks(redactLogText(`oops ${TOKENS.refresh}`))).toEqual([]);
  });

  test('ordinary words survive redaction', () => {
    expect(redactLogText('GET /v1/tasks?limit=100 → 200; error code ECONNRESET, tokens left 4')).toBe(
      'GET /v1/tasks?limit=100 → 200; error code ECONNRESET, tokens left 4',
    );
  });
});

describe('diagnostics', () => {
  test('people become stable pseudonyms, task content and query values are removed, paging kept', () => {
    const { log } = openLog();
    log.add(
      request(7, {
        path: '/v1/tasks?filter%5Bassignee%5D=mara&limit=100&cursor=abc123&filter%5Bq%5D=secret+plan',
      }),
    );
    log.add({
      level: 'warn',
      kind: 'conflict',
      message: 'mara and peer.person edited tsk_1; mail mara@example.com',
      detail: {
        title: 'Fix the CEO login',
        description: 'long text',
        by: 'peer.person',
        entity_id: 'tsk_1',
        fields: ['status'],
      },
    });
    const entries = log.query().entries;
    const report = diagnosticsReport({
      entries,
      context: { account: 'mara@example.com', state: 'signed-in' },
      people: ['mara', 'peer.person', 'mara@example.com', 'usr_mara'],
      secrets: [],
      salt: log.salt,
      generatedAt: '2026-03-10T12:00:00.000Z',
    });
    const mara = pseudonymOf('mara', log.salt);
    const peer = pseudonymOf('peer.person', log.salt);
    expect(report).not.toMatch(/mara|peer\.person|example\.com|CEO|long text|secret\+plan|abc123/);
    expect(report).toContain(`${mara} and ${peer} edited tsk_1`);
    expect(report).toContain('"title":"[removed]"');
    expect(report).toContain(`"by":"${peer}"`);
    expect(report).toContain(
      'filter%5Bassignee%5D=[removed]&limit=100&cursor=[cursor]&filter%5Bq%5D=[removed]',
    );
    expect(report).toContain('request req_7');
    // Stable: the same person gets the same pseudonym in every report from this log.
    expect(pseudonymOf('Mara', log.salt)).toBe(mara);
    expect(pseudonymOf('mara', 'another-salt')).not.toBe(mara);
  });

  test('the log file name follows the mirror file', () => {
    expect(syncLogFileFor('/data/acc_1.db')).toBe('/data/acc_1.sync-log.db');
    expect(syncLogFileFor('/data/acc_1.sqlite')).toBe('/data/acc_1.sync-log.db');
  });
});

describe('readable by its owner alone', () => {
  // The usual umask, which leaves new files readable by everyone (0644).
  usualUmaskWhileTesting();

  test('a new log file, its -wal and its -shm are 0600', () => {
    const { log } = openLog();
    log.add(request(1));
    log.flush();
    for (const path of [log.file, `${log.file}-wal`, `${log.file}-shm`]) expect(modeOf(path)).toBe(0o600);
  });

  test('a log left readable by others is tightened when opened', () => {
    const { log, dir } = openLog();
    log.add(request(1));
    log.close();
    for (const path of [log.file, `${log.file}-wal`, `${log.file}-shm`]) {
      writeFileSync(path, '', { flag: 'a' });
      chmodSync(path, 0o644);
    }
    const again = openLog({}, dir).log;
    expect(again.count()).toBe(1);
    for (const path of [again.file, `${again.file}-wal`, `${again.file}-shm`])
      expect(modeOf(path)).toBe(0o600);
  });
});
