// An id's bigram tokens are the terms searches for ids look up (idTermTokens)
// and the ones migration 0006 wrote for rows stored before: both sides must
// make the same tokens for the same id, whatever path builds them.
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { idBigramTokens } from './word-index';

/** Migration 0006's SQL for the same tokens: 'ǂ' and the hex of each bigram's UTF-8, in order. */
function sqlTokens(id: string): string {
  const db = new Database(':memory:');
  try {
    return db
      .prepare(
        `WITH RECURSIVE at(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM at WHERE i + 1 < length(@id))
         SELECT coalesce(group_concat('ǂ' || lower(hex(substr(@id, i, 2))), ' '), '') FROM at WHERE length(@id) >= 2`,
      )
      .pluck()
      .get({ id }) as string;
  } finally {
    db.close();
  }
}

test.each([
  ['tsk_zebra-quux'],
  ['ab'],
  ['a'],
  [''],
  ['tsk_aaaa'],
  ['id with ~ and space'],
  ['tâche_é'],
  ['tsk_😀x'],
])('the bigram tokens of %j are those migration 0006 writes', (id) => {
  expect(idBigramTokens(id)).toBe(sqlTokens(id));
});

test('a printable-ASCII id gives one token per bigram, in order, the same on every call', () => {
  expect(idBigramTokens('ab1')).toBe('ǂ6162 ǂ6231');
  expect(idBigramTokens('tsk_ab1')).toBe('ǂ7473 ǂ736b ǂ6b5f ǂ5f61 ǂ6162 ǂ6231');
  expect(idBigramTokens('ab1')).toBe('ǂ6162 ǂ6231');
});
