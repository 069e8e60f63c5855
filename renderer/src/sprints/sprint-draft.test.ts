// The sprint form's rules: an end date or a length in weeks, never both sent;
// slips named by their field before anything is queued; an edit sends only
// what changed.
import { describe, expect, test } from 'vitest';
import type { SprintSummary } from '../../../ipc/screen-schemas';
import { markOfState } from '../vocabulary/sync-mark-words';
import { createFields, draftOf, editPatch, type SprintDraft } from './sprint-draft';

const SPRINT: SprintSummary = {
  sprint_id: 'spr_1',
  team_id: 'team_1',
  name: 'Sprint 12',
  description: null,
  goal: 'Ship search',
  status: 'active',
  start_date: '2027-03-01',
  end_date: '2027-03-14',
  duration_label: '2 weeks',
  task_count: 0,
  completed_count: 0,
  current: false,
};

function draft(change: Partial<SprintDraft>): SprintDraft {
  return { ...draftOf(null, '2027-03-01'), name: 'Sprint 13', ...change };
}

describe('a new sprint', () => {
  test('with a length in weeks sends duration_weeks and no end date', () => {
    expect(createFields(draft({ weeks: '3' }))).toEqual({
      ok: true,
      fields: { name: 'Sprint 13', start_date: '2027-03-01', duration_weeks: 3 },
    });
  });

  test('with an end date sends end_date and no weeks, even when weeks were typed before switching', () => {
    expect(createFields(draft({ length: 'end', endDate: '2027-03-19', weeks: '4', goal: 'Beta' }))).toEqual({
      ok: true,
      fields: { name: 'Sprint 13', start_date: '2027-03-01', end_date: '2027-03-19', goal: 'Beta' },
    });
  });

  test.each<[string, Partial<SprintDraft>, keyof SprintDraft]>([
    ['a blank name', { name: '   ' }, 'name'],
    ['a name past 120 characters', { name: 'x'.repeat(121) }, 'name'],
    ['no start date', { startDate: '' }, 'startDate'],
    ['an end before the start', { length: 'end', endDate: '2027-02-28' }, 'endDate'],
    ['no end date', { length: 'end', endDate: '' }, 'endDate'],
    ['0 weeks', { weeks: '0' }, 'weeks'],
    ['53 weeks', { weeks: '53' }, 'weeks'],
    ['1.5 weeks', { weeks: '1.5' }, 'weeks'],
    ['a goal past 2000 characters', { goal: 'g'.repeat(2001) }, 'goal'],
  ])('is refused with %s, named by its field', (_what, change, field) => {
    const result = createFields(draft(change));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.field).toBe(field);
  });
});

describe('an edit', () => {
  test('unchanged sends nothing', () => {
    expect(editPatch(draftOf(SPRINT, '2027-03-01'), SPRINT)).toEqual({ ok: true, fields: {} });
  });

  test('sends only the changed fields; a cleared goal is null', () => {
    const edited = { ...draftOf(SPRINT, '2027-03-01'), name: ' Sprint 12b ', goal: '' };
    expect(editPatch(edited, SPRINT)).toEqual({ ok: true, fields: { name: 'Sprint 12b', goal: null } });
  });

  test('a new length in weeks replaces the end date rather than joining it', () => {
    const edited = { ...draftOf(SPRINT, '2027-03-01'), length: 'weeks' as const, weeks: '3' };
    expect(editPatch(edited, SPRINT)).toEqual({ ok: true, fields: { duration_weeks: 3 } });
  });

  test('a moved start with a length in weeks sends both, so the end follows the new start', () => {
    const edited = {
      ...draftOf(SPRINT, '2027-03-01'),
      startDate: '2027-03-08',
      length: 'weeks' as const,
      weeks: '2',
    };
    expect(editPatch(edited, SPRINT)).toEqual({
      ok: true,
      fields: { start_date: '2027-03-08', duration_weeks: 2 },
    });
  });
});

describe('an edit of a sprint not on the server yet (folded into its create)', () => {
  const byWeeks: SprintSummary = { ...SPRINT, sprint_id: 'local-1', end_date: '', duration_label: null };
  const byEnd: SprintSummary = { ...SPRINT, sprint_id: 'local-2' };

  test('made with weeks, it opens on its weeks, and a rename sends the name alone', () => {
    const draft = draftOf(byWeeks, '2027-03-01', 3);
    expect(draft).toMatchObject({ length: 'weeks', weeks: '3' });
    expect(editPatch({ ...draft, name: 'Sprint 12b' }, byWeeks, 3)).toEqual({
      ok: true,
      fields: { name: 'Sprint 12b' },
    });
  });

  test('made with weeks and given an end date, the weeks are dropped so the create never carries both', () => {
    const draft = { ...draftOf(byWeeks, '2027-03-01', 3), length: 'end' as const, endDate: '2027-03-21' };
    expect(editPatch(draft, byWeeks, 3)).toEqual({
      ok: true,
      fields: { end_date: '2027-03-21', duration_weeks: null },
    });
  });

  test('made with an end date and given a length in weeks, the weeks are sent (they replace the date in the waiting create)', () => {
    const draft = { ...draftOf(byEnd, '2027-03-01'), length: 'weeks' as const, weeks: '4' };
    expect(editPatch(draft, byEnd)).toEqual({ ok: true, fields: { duration_weeks: 4 } });
  });
});

test('a sprint waiting to be sent reads as pending; a refused one as not saved', () => {
  expect(markOfState(undefined)).toBeNull();
  expect(markOfState('queued')).toBe('pending');
  expect(markOfState('in_flight')).toBe('pending');
  expect(markOfState('failed')).toBe('failed');
  expect(markOfState('conflict')).toBe('conflict');
});
