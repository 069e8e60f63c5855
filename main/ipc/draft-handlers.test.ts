// The draft calls through the real gate over a real mirror file: a draft
// saved is listed (per task, or all), replaced by a later save, gone once
// discarded, and a draft main cannot tell where it belongs is refused.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { openMirror } from '../../db/open-mirror';
import { draftHandlers } from './draft-handlers';
import { type GateHarness, gateHarness } from './testing/gate-harness';
import { testAccount } from './testing/test-account';

let dir: string;
let mirror: Mirror;
let harness: GateHarness;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'draft-handlers-'));
  mirror = await openMirror(join(dir, 'mirror.sqlite'));
  const active = testAccount(mirror);
  harness = gateHarness();
  harness.gate.register(draftHandlers({ active: () => active }));
});

afterAll(async () => {
  mirror?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('drafts through the gate', () => {
  test('a saved draft is listed, replaced by the next save, and gone once discarded', async () => {
    const { value } = harness;
    await value('drafts:save', { kind: 'comment', task_id: 'tsk_1', text: 'First words' });
    await value('drafts:save', { kind: 'comment', task_id: 'tsk_1', text: 'First words, more' });
    await value('drafts:save', { kind: 'reply', task_id: 'tsk_1', reply_to: 'cmt_1', text: 'Yes' });
    const fields = { title: 'Buy paper', status: 'not_started', priority: '', project_id: '' };
    await value('drafts:save', { kind: 'new-task', fields });

    expect(await value('drafts:list', { task_id: 'tsk_1' })).toEqual(
      expect.arrayContaining([
        { kind: 'comment', task_id: 'tsk_1', text: 'First words, more' },
        { kind: 'reply', task_id: 'tsk_1', reply_to: 'cmt_1', text: 'Yes' },
      ]),
    );
    expect(await value('drafts:list')).toContainEqual({ kind: 'new-task', fields });

    await value('drafts:discard', { kind: 'comment', task_id: 'tsk_1' });
    expect(await value('drafts:list', { task_id: 'tsk_1' })).toEqual([
      { kind: 'reply', task_id: 'tsk_1', reply_to: 'cmt_1', text: 'Yes' },
    ]);
  });

  test('a reply that names no comment is refused, and nothing is kept', async () => {
    const before = await harness.value('drafts:list');
    const result = await harness.call('drafts:save', { kind: 'reply', task_id: 'tsk_2', text: 'Lost?' });
    expect(result).toMatchObject({ ok: false, error: { type: 'invalid-input' } });
    expect(await harness.value('drafts:list')).toEqual(before);
  });
});
