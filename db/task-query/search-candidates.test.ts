import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { parseTaskListQuery } from '../../protocol/task-list-query';
import { loadTasks, openTestMirror, taskJson } from '../test-mirror';
import { WordIndex } from '../tasks/word-index';
import { TaskReads } from './item-rows';
import { SearchCandidates } from './search-candidates';

/** The search candidates of a query string, read through a connection of their own (the word index complete). */
function candidatesOf(file: string, query: string): number[] | null {
  const raw = new Database(file, { readonly: true });
  try {
    const search = new SearchCandidates(
      new TaskReads(raw),
      new WordIndex(raw),
      () => 'fixed',
      () => true,
    );
    return search.candidates(parseTaskListQuery(new URLSearchParams(query)).filter);
  } finally {
    raw.close();
  }
}

test('a search of a rare word and words most tasks hold takes its candidates from the rare word alone, and its page is still exact', async () => {
  const handle = await openTestMirror();
  try {
    // 3 000 tasks say "fix" and "should"; 40 say "quokka", 10 of them as the phrase, and
    // 10 of them with neither common word: a candidate of the rare word alone, never a match.
    const tasks = Array.from({ length: 3000 }, (_, i) => {
      const rare = i % 75 === 4;
      const title =
        rare && i % 300 === 4
          ? `Quokka fix should ${i}`
          : rare && i % 300 === 79
            ? `Quokka alone ${i}`
            : rare
              ? `Should fix the quokka ${i}`
              : `Should fix ${i}`;
      return taskJson({ title });
    });
    loadTasks(handle.mirror, tasks);
    await handle.mirror.sortIndexesReady();
    const query = 'filter[search]=quokka fix should&sort_by=title';
    const phrase = tasks.filter((t) => (t.title as string).startsWith('Quokka fix should'));
    const page = handle.mirror.tasks.query(new URLSearchParams(query), { me: 'ada', today: '2026-03-10' });
    expect(page.items.map((t) => t.title).sort()).toEqual(phrase.map((t) => t.title as string).sort());
    expect(phrase).toHaveLength(10);

    // Intersecting "quokka" with "fix" and "should" passes every task's postings to drop 10 of 40:
    // the candidates are the rare word's 40, those without the common words among them.
    expect(candidatesOf(handle.file, query)).toHaveLength(40);
  } finally {
    handle.cleanup();
  }
}, 60_000);

test('words left out on their densities are taken back in when the candidates they leave pass the limit', async () => {
  const handle = await openTestMirror();
  try {
    // "alpha" is in every 100th of the first 6 400 tasks (its first postings say ~1%), then in each
    // of the next 12 000: past the 10 000 candidates sorted at once. "beta" is in every task of the
    // first part and every third of the rest, and too dense to be worth ANDing on its own density.
    const tasks = Array.from({ length: 18_400 }, (_, i) => {
      const alpha = i < 6400 ? i % 100 === 0 : true;
      const beta = i < 6400 || i % 3 === 0;
      return taskJson({ title: `${alpha ? 'Alpha ' : ''}${beta ? 'beta ' : ''}chore ${i}` });
    });
    loadTasks(handle.mirror, tasks);
    await handle.mirror.sortIndexesReady();
    const both = tasks.filter((t) => /^Alpha beta /.test(t.title as string));
    expect(candidatesOf(handle.file, 'filter[search]=alpha beta')).toHaveLength(both.length);
    expect(both.length).toBeLessThan(10_000);
  } finally {
    handle.cleanup();
  }
}, 60_000);
