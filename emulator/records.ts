// The emulator's stored records, in the field order the service sends them
// (contract's Resources part; gaps.md for tasks, projects and organizations).
// Derived fields (counts, durations) are computed when a record is read.
// A collection kind's records are reached through its key
// (`store.records(SECTIONS)`); a kind added later may declare its record and
// key in its route file instead (docs/adding-a-kind.md).
import type { TaskFieldValues } from '../protocol/task';
import type { WritableCollection } from '../protocol/writable-kinds';

/** Names a collection kind's records in the store and carries their type. */
export interface CollectionKey<R> {
  readonly collection: WritableCollection;
  /** Never set: it only ties the key to its record type. */
  readonly record?: R;
}

export function collectionKey<R>(collection: WritableCollection): CollectionKey<R> {
  return { collection };
}

export interface OrganizationRecord {
  org_id: string;
  name: string;
  slug: string;
  created_at: string;
}

export interface OrganizationMemberRecord {
  user_id: string;
  org_id: string;
  email: string | null;
  username: string | null;
  designation: string | null;
  designation_id: string | null;
  role: 'owner' | 'admin' | 'member';
  invited_by: string | null;
  updated_by: string | null;
  delete_reason: string | null;
  deleted_by: string | null;
  is_active: boolean;
  invited_at: string | null;
  accepted_at: string | null;
  updated_at: string | null;
  deleted_at: string | null;
  last_active_at: string | null;
  kind: 'user' | 'service_account';
  mfa_enrolled: boolean | null;
}

export interface ProjectRecord {
  project_id: string;
  org_id: string;
  name: string;
  description: string | null;
  status: 'active' | 'archived';
  team_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface TeamRecord {
  team_id: string;
  org_id: string;
  name: string;
  description: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  is_active: boolean;
}

export interface TeamMemberRecord {
  team_id: string;
  user_id: string;
  team_role: 'owner' | 'member';
  username: string | null;
  added_by: string | null;
  created_at: string;
  updated_at: string;
}

export type SectionScopeType = 'project' | 'team' | 'user';

export interface SectionRecord {
  section_id: string;
  org_id: string;
  name: string;
  scope_type: SectionScopeType;
  scope_id: string;
  position: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export const SECTIONS = collectionKey<SectionRecord>('sections');

export interface SprintRecord {
  sprint_id: string;
  org_id: string;
  team_id: string;
  name: string;
  description: string | null;
  goal: string | null;
  start_date: string;
  end_date: string;
  status: string;
  completed_at: string | null;
  completed_by: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  is_active: boolean;
}

export const SPRINTS = collectionKey<SprintRecord>('sprints');

export interface GoalRecord {
  goal_id: string;
  org_id: string;
  project_id: string;
  name: string;
  target_date: string | null;
  description: string | null;
  position: number;
  status: string;
  closed_at: string | null;
  closed_by: string | null;
  converted_from_task_id: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  /** Soft delete: a deleted goal is kept but no longer listed or readable. */
  deleted_at: string | null;
}

export const GOALS = collectionKey<GoalRecord>('goals');

/** A milestone of a project (gaps.md "Milestones"); deleting one removes it and unfiles its tasks. */
export interface MilestoneRecord {
  milestone_id: string;
  org_id: string;
  project_id: string;
  name: string;
  description: string | null;
  due_date: string | null;
  status: string;
  position: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export const MILESTONES = collectionKey<MilestoneRecord>('milestones');

/** A task as the service keeps it: every field of the contract, these always set. */
export interface TaskRecord extends TaskFieldValues {
  org_id: string;
  tags: string[];
  task_type: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface MentionRecord {
  user_id: string | null;
  username: string | null;
  email: string | null;
}

export interface CommentRecord {
  comment_id: string;
  task_id: string;
  org_id: string;
  parent_comment_id: string | null;
  content: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  mentions: MentionRecord[];
}

export interface FieldChange {
  field: string;
  new: unknown;
  old: unknown;
}

export interface HistoryRecord {
  history_id: string;
  task_id: string;
  action: 'created' | 'updated' | 'deleted';
  created_by: string;
  created_at: string;
  title: string | null;
  metadata: FieldChange[] | null;
  hash_id: string | null;
  updated_at: string | null;
}
