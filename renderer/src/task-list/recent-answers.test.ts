import { describe, expect, test } from 'vitest';
import { RecentAnswers } from './recent-answers';
import type { RowPage } from './row-window';

const page = (next: string | null): RowPage => ({ rows: [], next });

describe("the list's recent answers", () => {
  test('a query asked again is answered with its first page and count', () => {
    const recent = new RecentAnswers();
    const asked = recent.now();
    recent.keep('mig', asked, page('c1'));
    recent.keepCount('mig', asked, 412);
    expect(recent.get('mig')).toEqual({ page: page('c1'), count: 412 });
    expect(recent.get('migr')).toBeNull();
  });

  test('a change of the mirror drops every answer', () => {
    const recent = new RecentAnswers();
    recent.keep('mig', recent.now(), page('c1'));
    recent.clear();
    expect(recent.get('mig')).toBeNull();
  });

  test('an answer to a query asked before a change is not kept, nor its count', () => {
    const recent = new RecentAnswers();
    const before = recent.now();
    recent.keep('mi', before, page('c0'));
    recent.clear();
    recent.keep('mig', before, page('c1'));
    expect(recent.get('mig')).toBeNull();
    recent.keep('mi', recent.now(), page('c2'));
    recent.keepCount('mi', before, 9);
    expect(recent.get('mi')).toEqual({ page: page('c2'), count: null });
  });

  test('beyond its limit the least recently used answer goes first', () => {
    const recent = new RecentAnswers(2);
    const now = recent.now();
    recent.keep('a', now, page('a'));
    recent.keep('b', now, page('b'));
    recent.get('a');
    recent.keep('c', now, page('c'));
    expect(recent.get('b')).toBeNull();
    expect(recent.get('a')?.page).toEqual(page('a'));
    expect(recent.get('c')?.page).toEqual(page('c'));
  });
});
