// What the sprint form holds and what it sends: a start date plus EITHER an
// end date OR a length in weeks (the service refuses both, 422), checked here
// first so a slip is told beside its field and nothing typed is lost.
import type { SprintSummary } from '../../../ipc/screen-schemas';

// The contract's bounds (service-api.md, POST /v1/teams/{team_id}/sprints).
export const SPRINT_NAME_MAX = 120;
export const SPRINT_TEXT_MAX = 2000;
export const WEEKS_MAX = 52;
const DAY_MS = 86_400_000;

export type LengthChoice = 'end' | 'weeks';

export interface SprintDraft {
  name: string;
  startDate: string;
  length: LengthChoice;
  endDate: string;
  weeks: string;
  goal: string;
  description: string;
}

export type DraftField = keyof SprintDraft;

export type DraftResult =
  | { ok: true; fields: Record<string, string | number | null> }
  | { ok: false; field: DraftField; message: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** Whole weeks from start to end (both days in), when the span is a whole number of weeks. */
function wholeWeeks(start: string, end: string): number | null {
  if (!isDay(start) || !isDay(end)) return null;
  const days = Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS) + 1;
  return days >= 7 && days % 7 === 0 && days / 7 <= WEEKS_MAX ? days / 7 : null;
}

/**
 * A sprint not on the server yet (its temporary `local-…` id, ipc-collections): an edit folds into
 * its waiting create, whose body never takes both an end date and weeks (a status goes as an update
 * sent right after the create, db/outbox/queue.ts).
 */
export function isUnsent(sprint: SprintSummary): boolean {
  return sprint.sprint_id.startsWith('local-');
}

/** The length in weeks it has now: from its dates, or the waiting create's (no end date before the server sets it). */
function weeksNow(sprint: SprintSummary, waitingWeeks: number | null): number | null {
  return sprint.end_date === '' ? waitingWeeks : wholeWeeks(sprint.start_date, sprint.end_date);
}

/** The form's first values: two weeks from today for a new sprint, the sprint's own for an edit. */
export function draftOf(
  sprint: SprintSummary | null,
  today: string,
  waitingWeeks: number | null = null,
): SprintDraft {
  if (sprint === null)
    return {
      name: '',
      startDate: today,
      length: 'weeks',
      endDate: '',
      weeks: '2',
      goal: '',
      description: '',
    };
  return {
    name: sprint.name,
    startDate: sprint.start_date,
    length: sprint.end_date === '' ? 'weeks' : 'end',
    endDate: sprint.end_date,
    weeks: String(weeksNow(sprint, waitingWeeks) ?? 2),
    goal: sprint.goal ?? '',
    description: sprint.description ?? '',
  };
}

function problem(field: DraftField, message: string): DraftResult {
  return { ok: false, field, message };
}

/** The first thing the service would refuse, named by its field; null when there is none. */
function refusal(draft: SprintDraft): DraftResult | null {
  const name = draft.name.trim();
  if (name === '') return problem('name', 'Give the sprint a name.');
  if (name.length > SPRINT_NAME_MAX)
    return problem('name', `A sprint name is at most ${SPRINT_NAME_MAX} characters.`);
  if (!isDay(draft.startDate)) return problem('startDate', 'Choose the day the sprint starts.');
  if (draft.length === 'end') {
    if (!isDay(draft.endDate)) return problem('endDate', 'Choose the day the sprint ends.');
    if (draft.endDate < draft.startDate) return problem('endDate', 'The sprint ends before it starts.');
  } else {
    const weeks = Number(draft.weeks);
    if (draft.weeks.trim() === '' || !Number.isInteger(weeks) || weeks < 1 || weeks > WEEKS_MAX)
      return problem('weeks', `A sprint lasts 1 to ${WEEKS_MAX} whole weeks.`);
  }
  if (draft.goal.length > SPRINT_TEXT_MAX)
    return problem('goal', `The goal is at most ${SPRINT_TEXT_MAX} characters.`);
  if (draft.description.length > SPRINT_TEXT_MAX)
    return problem('description', `The description is at most ${SPRINT_TEXT_MAX} characters.`);
  return null;
}

/** Empty text is "none" on the wire. */
function textOrNull(text: string): string | null {
  return text.trim() === '' ? null : text;
}

/** The create body's fields (without org and team, which the route and the call carry). */
export function createFields(draft: SprintDraft): DraftResult {
  const refused = refusal(draft);
  if (refused !== null) return refused;
  const fields: Record<string, string | number | null> = {
    name: draft.name.trim(),
    start_date: draft.startDate,
  };
  if (draft.length === 'end') fields.end_date = draft.endDate;
  else fields.duration_weeks = Number(draft.weeks);
  const goal = textOrNull(draft.goal);
  const description = textOrNull(draft.description);
  if (goal !== null) fields.goal = goal;
  if (description !== null) fields.description = description;
  return { ok: true, fields };
}

/**
 * A merge-patch of what the person changed (empty when nothing); a length in weeks replaces the end date
 * (folded into a waiting create, the weeks take the end date's place there: db/outbox/kinds/sprint.ts).
 */
export function editPatch(
  draft: SprintDraft,
  sprint: SprintSummary,
  waitingWeeks: number | null = null,
): DraftResult {
  const refused = refusal(draft);
  if (refused !== null) return refused;
  const fields: Record<string, string | number | null> = {};
  const name = draft.name.trim();
  if (name !== sprint.name) fields.name = name;
  if (draft.startDate !== sprint.start_date) fields.start_date = draft.startDate;
  if (draft.length === 'end') {
    if (draft.endDate !== sprint.end_date) fields.end_date = draft.endDate;
    // Folded into a create made with weeks: the weeks go, or the create would carry both (422).
    if (isUnsent(sprint) && sprint.end_date === '') fields.duration_weeks = null;
  } else if (Number(draft.weeks) !== weeksNow(sprint, waitingWeeks) || 'start_date' in fields) {
    fields.duration_weeks = Number(draft.weeks);
  }
  const goal = textOrNull(draft.goal);
  const description = textOrNull(draft.description);
  if (goal !== (sprint.goal ?? null)) fields.goal = goal;
  if (description !== (sprint.description ?? null)) fields.description = description;
  return { ok: true, fields };
}

/** Today as the service writes dates (YYYY-MM-DD), in the person's own calendar. */
export function localDay(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}
