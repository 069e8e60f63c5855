// The shapes main answers the page with (ipc/screen-schemas.ts), filled
// with plain values so a component test names only the fields it is about.
import type {
  AccountSummary,
  MilestoneSummary,
  SprintSummary,
  SyncStatus,
  TaskDetail,
  TaskRow,
  Workspace,
} from '../../../ipc/screen-schemas';
import type { BulkQueued } from '../../../ipc/bulk-schemas';
import type { PendingChange, ServerAnswer } from '../../../ipc/outbox-schemas';
import type { ViewSummary } from '../../../ipc/view-schemas';
import type { SyncAccountView } from '../../../ipc/visibility-schemas';
import type { Task } from '../../../protocol/task';

export function workspaceOf(parts: Partial<Workspace> = {}): Workspace {
  return {
    organization: { org_id: 'org-1', name: 'Org' },
    projects: [],
    teams: [],
    goals: [],
    sections: [],
    members: [],
    me: { username: 'ada', user_id: 'user-ada' },
    tags: [],
    ...parts,
  };
}

type Project = Workspace['projects'][number];
type Goal = Workspace['goals'][number];

export function project(project_id: string, name: string, parts: Partial<Project> = {}): Project {
  return { project_id, name, status: null, team_id: null, ...parts };
}

export function goalSummary(goal_id: string, project_id: string, name: string): Goal {
  return {
    goal_id,
    project_id,
    name,
    description: null,
    status: null,
    target_date: null,
    tasks_total: 0,
    tasks_completed: 0,
  };
}

export function taskRow(parts: Partial<TaskRow> & { task_id: string }): TaskRow {
  return {
    title: parts.task_id,
    status: 'not_started',
    priority: null,
    assignee: null,
    project_id: null,
    team_id: null,
    section_id: null,
    sprint_id: null,
    goal_id: null,
    tags: [],
    due_date: null,
    start_date: null,
    created_at: null,
    task_type: null,
    review: null,
    position: null,
    sync_mark: null,
    ...parts,
  };
}

/** A task as the editor reads it; `family` (its parent and sub-tasks) none unless given. */
export function taskDetail(
  task: Partial<Task> & { task_id: string },
  family: Partial<TaskDetail['family']> = {},
): TaskDetail {
  return {
    task: { title: task.task_id, status: 'not_started', ...task },
    sync_mark: null,
    pending_fields: [],
    server_gone: false,
    family: { parent: null, sub_tasks: [], sub_tasks_done: 0, ...family },
  };
}

export function sprintSummary(parts: Partial<SprintSummary> & { sprint_id: string }): SprintSummary {
  return {
    team_id: 'team-1',
    name: parts.sprint_id,
    description: null,
    goal: null,
    status: null,
    start_date: '2026-11-02',
    end_date: '2026-11-15',
    duration_label: null,
    task_count: 0,
    completed_count: 0,
    current: false,
    ...parts,
  };
}

/** The signed-in account the window shows; `read_only` and `read_only_kinds` say what it may not change. */
export function account(parts: Partial<AccountSummary> = {}): AccountSummary {
  return {
    account_id: 'acct-1',
    username: 'ada',
    user_id: 'user-ada',
    org_id: 'org-1',
    org_name: 'Org',
    server: { base_url: 'http://127.0.0.1:1', auth_url: 'http://127.0.0.1:1/auth', client_id: 'desktop' },
    read_only: false,
    read_only_kinds: [],
    state: 'signed-in',
    current: true,
    demo: false,
    ...parts,
  };
}

/** A change waiting in the outbox as the inspector lists it: a task's edit, queued and not sent yet, unless given. */
export function pendingChange(parts: Partial<PendingChange> & { op_id: string }): PendingChange {
  return {
    task_id: '',
    task_title: null,
    kind: 'update',
    state: 'queued',
    changes: [],
    attempts: 0,
    created_at: '2026-11-29T10:00:00Z',
    updated_at: '2026-11-29T10:00:00Z',
    last_answer: null,
    waits_on: null,
    ...parts,
  };
}

/** The service's answer to a change as the outbox recorded it. */
export function serverAnswer(
  status: number,
  detail: string,
  parts: Partial<ServerAnswer> = {},
): ServerAnswer {
  return { status, type: 'about:blank', detail, errors: [], ...parts };
}

/** A project's milestone as its list reads it: open, nothing filed under it, unless given. */
export function milestone(
  milestone_id: string,
  name: string,
  parts: Partial<MilestoneSummary> = {},
): MilestoneSummary {
  return {
    milestone_id,
    project_id: 'p-web',
    name,
    description: null,
    status: 'open',
    due_date: null,
    position: null,
    tasks_total: 0,
    tasks_completed: 0,
    ...parts,
  };
}

/** An account online and idle that has never synced, as the status bar and the Sync screen both tell it. */
const ONLINE_NEVER_SYNCED = {
  connection: 'online',
  problem: null,
  syncing: false,
  last_synced_at: null,
} as const;

/** The status bar's sync status of one account: online, idle, nothing waiting or left out, unless given. */
export function syncStatus(parts: Partial<SyncStatus> = {}): SyncStatus {
  return {
    account_id: 'acc_1',
    ...ONLINE_NEVER_SYNCED,
    pending_count: 0,
    conflict_count: 0,
    failed_count: 0,
    blocked_count: 0,
    first_sync: null,
    read_only: false,
    signed_out: false,
    paused: false,
    unsynced: [],
    left_out: { items: [], more: 0 },
    ...parts,
  };
}

/** An account as the Sync screen lists it: signed in, online, never synced, nothing waiting, unless given. */
export function syncAccount(parts: Partial<SyncAccountView> = {}): SyncAccountView {
  return {
    account_id: 'a-1',
    label: 'ada · Northwind',
    current: true,
    state: 'signed-in',
    ...ONLINE_NEVER_SYNCED,
    session_ends_at: null,
    pending: 0,
    conflicts: 0,
    failed: 0,
    blocked: 0,
    unseen: 0,
    collections: [],
    ...parts,
  };
}

/** A saved view as views:sidebar lists it. */
export function savedView(
  view_id: string,
  name: string,
  created_by: string | null,
  pending?: 'queued',
): ViewSummary {
  return {
    view_id,
    name,
    visibility: 'private',
    layout: 'list',
    group_by: null,
    sort_by: 'title',
    sort_order: 'asc',
    filters: {},
    created_by,
    unknown_filters: null,
    ...(pending === undefined ? {} : { pending }),
  };
}

/** main's answer to a bulk change: `queued` tasks given an operation, none set back or left as they were. */
export function bulkQueued(queued: number, parts: Partial<BulkQueued> = {}): BulkQueued {
  return { batch_id: 'b-1', matched: queued, queued, set_back: 0, unchanged: 0, ...parts };
}
