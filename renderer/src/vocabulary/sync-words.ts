// Words for the state of sync: why an account is offline ("signed out",
// "rate-limited until 14:32", "server unreachable") and what each mirrored
// collection is called, shared by the status bar and the account panel.
import type { LeftOutItem, SyncProblem, UnsyncedCollection } from '../../../ipc/screen-schemas';
import { describeProblem } from '../problems/describe-problem';
import { dateFormat } from './date-formats';

const CLOCK = dateFormat({ hour: '2-digit', minute: '2-digit' });

/** Why sync is not going, in a few words; null when nothing is wrong. */
export function problemWords(
  problem: SyncProblem | null,
  signedOut: boolean,
  now = Date.now(),
): string | null {
  if (signedOut || problem?.kind === 'signed-out') return 'signed out';
  if (problem === null) return null;
  if (problem.type === 'rate-limit') {
    if (problem.retry_at === null) return 'rate-limited';
    const at = Date.parse(problem.retry_at);
    return at > now ? `rate-limited until ${CLOCK().format(new Date(at))}` : 'rate-limited, trying again';
  }
  if (problem.type === 'auth-server-unavailable') return 'sign-in server unreachable';
  if (problem.kind === 'network') return 'server unreachable';
  return describeProblem(problem.type ?? problem.kind).title.toLowerCase();
}

/** Why a collection did not sync, in a few words (by kind and status, never by message text). */
function unsyncedReason(unsynced: UnsyncedCollection): string {
  if (unsynced.kind === 'network') return 'the server could not be reached';
  if (unsynced.kind === 'cursor-refused') return 'the server kept restarting the list';
  if (unsynced.kind === 'invalid-response') return "the server's answer was not understood";
  if (unsynced.type === 'rate-limit') return 'the server asked the app to slow down';
  if (unsynced.status !== null && unsynced.status >= 500)
    return `the server failed (error ${unsynced.status})`;
  return describeProblem(unsynced.type ?? unsynced.kind).title.toLowerCase();
}

/** "Sections could not be synced: the server failed (error 500)", for the status bar and the Sync screen. */
export function unsyncedWords(unsynced: UnsyncedCollection): string {
  const what =
    unsynced.scope === ''
      ? collectionWord(unsynced.collection)
      : `${collectionWord(unsynced.collection)} of ${SCOPE_WORDS[unsynced.collection] ?? ''}${unsynced.scope}`;
  if (unsynced.skipped_because !== null) {
    return `${what} could not be synced: ${collectionWord(unsynced.skipped_because)} could not be synced first`;
  }
  return `${what} could not be synced: ${unsyncedReason(unsynced)}`;
}

/** "Tasks › tsk_9: status could not be read", for the Sync screen (the check's words go in its tooltip). */
export function leftOutWords(item: LeftOutItem): string {
  const what = `${collectionWord(item.collection)} › ${item.id ?? 'an item without a readable id'}`;
  if (item.field === '(answer)') return `${what}: the server's answer could not be read`;
  if (item.field === '(row)') return `${what}: could not be read`;
  return `${what}: ${item.field} could not be read`;
}

const COLLECTION_WORDS: Record<string, string> = {
  organizations: 'Organization',
  me: 'Your profile',
  projects: 'Projects',
  teams: 'Teams',
  organization_members: 'People',
  sections: 'Sections',
  sprints: 'Sprints',
  goals: 'Goals',
  milestones: 'Milestones',
  tasks: 'Tasks',
  task_comments: 'Comments',
};

/** What a per-scope list's scope is: sprints are listed per team, milestones per project. */
const SCOPE_WORDS: Record<string, string> = { sprints: 'team ', milestones: 'project ' };

export function collectionWord(collection: string): string {
  return COLLECTION_WORDS[collection] ?? collection.replace(/_/g, ' ');
}

/** The collections in the order a sync visits them; unknown ones after, by name. */
export function collectionOrder(a: string, b: string): number {
  const order = Object.keys(COLLECTION_WORDS);
  const rank = (c: string) => (order.includes(c) ? order.indexOf(c) : order.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}
