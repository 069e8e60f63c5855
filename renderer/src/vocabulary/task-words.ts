// How task values read in the app: the service's enum values as words, and
// dates as a person says them. Unknown values (the service may add some) are
// shown as they come, made readable.
import { dateFormat, type DateFormat } from './date-formats';

export const STATUSES = ['not_started', 'in_progress', 'blocked', 'completed'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const TASK_TYPES = ['task', 'bug'] as const;
export const REVIEWS = ['pending', 'accepted', 'rejected'] as const;
export const ORIGINS = ['app', 'api', 'sdk', 'mcp'] as const;

const WORDS: Record<string, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  blocked: 'Blocked',
  completed: 'Done',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
  task: 'Task',
  bug: 'Bug',
  pending: 'Review pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  app: 'App',
  api: 'API',
  sdk: 'SDK',
  mcp: 'MCP',
  none: 'None',
  me: 'Me',
  __unfiled__: 'No project',
  __none__: 'No team',
};

export function valueWord(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const known = WORDS[value];
  if (known !== undefined) return known;
  const spaced = value.replace(/[_-]+/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export const FIELD_WORDS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  status: 'Status',
  priority: 'Priority',
  assignee: 'Assignee',
  tags: 'Tags',
  due_date: 'Due',
  start_date: 'Start',
  project_id: 'Project',
  team_id: 'Team',
  section_id: 'Section',
  sprint_id: 'Sprint',
  goal_id: 'Goal',
  milestone_id: 'Milestone',
  task_type: 'Type',
  review: 'Review',
  position: 'Position',
  created_at: 'Created',
  assignee_me: 'Assigned to me',
};

export function fieldWord(field: string): string {
  return FIELD_WORDS[field] ?? valueWord(field);
}

const DAY_MS = 86_400_000;

// Formatters are costly to build and a list formats a date per row: made once, when first used.
const SHORT_DAY = dateFormat({ month: 'short', day: 'numeric', timeZone: 'UTC' });
const LONG_DAY = dateFormat({ month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const MOMENT = dateFormat({ dateStyle: 'medium', timeStyle: 'short' });
const LOCAL_DAY = dateFormat({ month: 'short', day: 'numeric' });

/** The formatters a list's rows use (their due days): built while the first screen waits for main. */
export const ROW_DATE_FORMATS: readonly DateFormat[] = [SHORT_DAY, LONG_DAY];

/** `2026-03-04` as "Mar 4" (this year) or "Mar 4, 2025"; with "today", "tomorrow", "yesterday" nearby. */
export function dayWords(day: string | null | undefined, today = new Date()): string {
  if (!day) return '—';
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const diff = Math.round((date.getTime() - todayUtc) / DAY_MS);
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  if (diff === -1) return 'Yesterday';
  return (date.getUTCFullYear() === today.getUTCFullYear() ? SHORT_DAY : LONG_DAY)().format(date);
}

/** Due before today and not done. */
export function isOverdue(due: string | null, status: string, today = new Date()): boolean {
  return due !== null && status !== 'completed' && due < today.toISOString().slice(0, 10);
}

/** "just now", "5 min ago", "3 h ago", or a date. */
export function agoWords(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return LOCAL_DAY().format(new Date(at));
}

export function timeWords(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return MOMENT().format(at);
}

/** Built once (count.toLocaleString() asks for one on each call; the list's count is drawn on each page it takes). */
let counts: Intl.NumberFormat | null = null;

export function countWords(count: number, one: string, many: string): string {
  counts ??= new Intl.NumberFormat();
  return `${counts.format(count)} ${count === 1 ? one : many}`;
}
