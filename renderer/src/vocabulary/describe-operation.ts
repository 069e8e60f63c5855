// A waiting change in words: what it changes ("Status: In progress → Done on
// 'Fix login'"), the state it is in, and the server's last answer, so the
// person knows what is saved, what is not, and why.
import type { FieldChangeView, PendingChange, ServerAnswer } from '../../../ipc/outbox-schemas';
import { describeProblem } from '../problems/describe-problem';
import { dayWords, fieldWord, valueWord } from './task-words';
import { COLLECTION_KINDS } from '../../../protocol/writable-kinds';

/** Names of referenced things (projects, sections, …) by field and id; null when unknown. */
export type NameOf = (field: string, id: string) => string | null;

const WORD_FIELDS: ReadonlySet<string> = new Set(['status', 'priority', 'task_type', 'review']);
const DAY_FIELDS: ReadonlySet<string> = new Set(['due_date', 'start_date']);
const LONGEST_VALUE = 48;

function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LONGEST_VALUE ? `${line.slice(0, LONGEST_VALUE - 1)}…` : line;
}

/** One field's value as a person reads it: words for statuses, days for dates, names for ids. */
export function valueText(field: string, value: unknown, nameOf?: NameOf, today?: Date): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(String).join(', ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return shortened(JSON.stringify(value));
  if (WORD_FIELDS.has(field)) return valueWord(value);
  if (DAY_FIELDS.has(field)) return dayWords(value, today);
  if (field.endsWith('_id')) return nameOf?.(field, value) ?? value;
  if (field === 'assignee') return value;
  return `‘${shortened(value)}’`;
}

export function describeFieldChange(change: FieldChangeView, nameOf?: NameOf, today?: Date): string {
  const before = valueText(change.field, change.before, nameOf, today);
  const after = valueText(change.field, change.after, nameOf, today);
  return `${fieldWord(change.field)}: ${before} → ${after}`;
}

function taskName(change: PendingChange): string {
  return change.task_title === null ? 'a task no longer here' : `‘${shortened(change.task_title)}’`;
}

/** Names by id as a change or conflict carries them (db/referenced-names), before any other source. */
export function carriedNames(
  names: Readonly<Record<string, string>> | undefined,
  otherwise?: NameOf,
): NameOf {
  return (field, id) => names?.[id] ?? otherwise?.(field, id) ?? null;
}

/** A change to a comment in one sentence: "Reply to ana: 'Which build?' on 'Fix login': 'Done, see the PR'". */
function describeCommentChange(change: PendingChange, nameOf?: NameOf): string {
  const content = change.changes.find((c) => c.field === 'content');
  const on = taskName(change);
  switch (change.kind) {
    case 'delete':
      return `Delete a comment on ${on}`;
    case 'create': {
      const parent = change.changes.find((c) => c.field === 'parent_comment_id')?.after;
      if (typeof parent !== 'string') return `Comment on ${on}: ${valueText('content', content?.after)}`;
      const to = nameOf?.('parent_comment_id', parent) ?? null;
      return `Reply${to === null ? '' : ` to ${to}`} on ${on}: ${valueText('content', content?.after)}`;
    }
    case 'update':
      return `Edit a comment on ${on}: ${valueText('content', content?.before)} → ${valueText('content', content?.after)}`;
  }
}

/** A change to a section in one sentence: "Rename section ‘Later’ → ‘Next week’". */
function describeSectionChange(change: PendingChange): string {
  const name = change.entity_name ?? null;
  const named = name === null ? 'a section' : `section ‘${shortened(name)}’`;
  const renamed = change.changes.find((c) => c.field === 'name');
  switch (change.kind) {
    case 'delete':
      return `Delete ${named}`;
    case 'create':
      return `New section ${valueText('name', renamed?.after)}`;
    case 'update': {
      const parts: string[] = [];
      if (renamed) parts.push(`Rename ${named} → ${valueText('name', renamed.after)}`);
      if (change.changes.some((c) => c.field === 'position'))
        parts.push(renamed ? 'move it' : `Move ${named}`);
      return parts.length > 0 ? parts.join(' and ') : `No change to ${named}`;
    }
  }
}

/** What setting a status says about a sprint, goal or milestone ("Complete", "Close", "Reopen"), from their descriptors. */
const STATUS_VERBS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.fromEntries(
  COLLECTION_KINDS.flatMap((kind) => (kind.statusVerbs ? [[kind.entityType, kind.statusVerbs]] : [])),
);

/** A change to a sprint, goal or milestone in one sentence: "Complete sprint ‘Sprint 12’", "Close goal ‘Launch’". */
function describePlanChange(change: PendingChange, noun: string, nameOf?: NameOf, today?: Date): string {
  const renamed = change.changes.find((c) => c.field === 'name');
  const name = change.entity_name ?? (typeof renamed?.before === 'string' ? renamed.before : null);
  const named = name === null ? `a ${noun}` : `${noun} ‘${shortened(name)}’`;
  switch (change.kind) {
    case 'delete':
      return `Delete ${named}`;
    case 'create':
      return `New ${noun} ${valueText('name', renamed?.after)}`;
    case 'update': {
      const status = change.changes.find((c) => c.field === 'status');
      const verb = typeof status?.after === 'string' ? STATUS_VERBS[noun]?.[status.after] : undefined;
      const others = change.changes
        .filter((c) => c.field !== 'name' && (c.field !== 'status' || verb === undefined))
        .map((c) => describeFieldChange(c, nameOf, today));
      const newName = renamed ? valueText('name', renamed.after) : null;
      let text =
        verb !== undefined
          ? `${verb} ${named}${newName === null ? '' : ` and rename it → ${newName}`}`
          : newName !== null
            ? `Rename ${named} → ${newName}`
            : null;
      if (others.length > 0) text = `${text === null ? `Edit ${named}:` : `${text};`} ${others.join('; ')}`;
      return text ?? `No change to ${named}`;
    }
  }
}

/** The whole change in one sentence. */
export function describeOperation(change: PendingChange, nameOf?: NameOf, today?: Date): string {
  if (change.entity_type === 'comment') return describeCommentChange(change, nameOf);
  if (change.entity_type === 'section') return describeSectionChange(change);
  if (change.entity_type !== undefined && change.entity_type in STATUS_VERBS)
    return describePlanChange(change, change.entity_type, nameOf, today);
  switch (change.kind) {
    case 'delete':
      return `Delete ${taskName(change)}`;
    case 'create': {
      const fields = change.changes
        .filter((c) => c.field !== 'title')
        .map((c) => `${fieldWord(c.field)}: ${valueText(c.field, c.after, nameOf, today)}`);
      return `New task ${taskName(change)}${fields.length > 0 ? ` (${fields.join('; ')})` : ''}`;
    }
    case 'update': {
      const parts = change.changes.map((c) => describeFieldChange(c, nameOf, today));
      return `${parts.length > 0 ? parts.join('; ') : 'No field'} on ${taskName(change)}`;
    }
  }
}

function statusText(answer: ServerAnswer): string {
  return answer.status === null ? '' : ` (${answer.status})`;
}

/**
 * The server's last answer in words; null when there was none worth telling
 * (never sent, or accepted). `missingScope`: the permission the account's
 * sign-in lacks for the change's kind, named when the answer was that refusal.
 */
export function answerWords(
  answer: ServerAnswer | null,
  missingScope: string | null = null,
  /** What the change is to, as its 403 and 404 say it ("view": only its creator may change a view). */
  noun = 'task',
): string | null {
  if (answer === null) return null;
  const code = statusText(answer);
  if (answer.type === 'edited-remotely') return `Someone changed this task on the server meanwhile${code}.`;
  if (answer.status === 404) return `The ${noun} is gone from the server${code}.`;
  if (answer.status === 422 || answer.type === 'validation') {
    const why =
      answer.errors.length > 0
        ? answer.errors
            .map((e) => (e.field === null ? e.message : `${fieldWord(e.field)}: ${e.message}`))
            .join('; ')
        : (answer.detail ?? 'a value was not accepted');
    return `Refused by the server${code}: ${why}.`;
  }
  if (answer.type === 'insufficient-scope' && missingScope !== null) {
    return `${describeProblem(answer.type).title}${code}: it lacks ${missingScope}; the change was not sent.`;
  }
  if (answer.type === 'test-token-read-only' || answer.type === 'insufficient-scope') {
    return `${describeProblem(answer.type).title}${code}: the change was not sent.`;
  }
  if (answer.status === 403)
    return noun === 'view'
      ? `Only the view's creator or an organization owner or admin may change it${code}.`
      : `You can no longer change or see this ${noun}${code}.`;
  if (answer.type === 'unsafe-id') return `${describeProblem(answer.type).detail}`;
  if (answer.type === 'network') return 'The server could not be reached; it will be sent again.';
  if (answer.status !== null && (answer.status >= 500 || answer.status === 429)) {
    return `The server could not take it now${code}; it will be sent again.`;
  }
  return `${answer.detail ?? describeProblem(answer.type ?? 'internal').title}${code}`;
}
