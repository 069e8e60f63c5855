// The screens the app does not open on and the task editor, each loaded when first
// shown (ui/later.tsx): the task list, the sidebar and the status bar are what
// the first screen parses and runs before its first rows.
import { later } from '../ui/later';

export const SectionBoard = later(async () => (await import('../board/section-board')).SectionBoard);
export const SprintView = later(async () => (await import('../sprints/sprint-view')).SprintView);
export const TriageView = later(async () => (await import('../triage/triage-view')).TriageView);
export const GoalsView = later(async () => (await import('../goals/goals-view')).GoalsView);
export const MilestonesView = later(
  async () => (await import('../milestones/milestones-view')).MilestonesView,
);
export const SavedViewScreen = later(
  async () => (await import('../saved-views/saved-view-screen')).SavedViewScreen,
);
export const SyncCenter = later(async () => (await import('../sync-center/sync-center')).SyncCenter);
export const InboxView = later(async () => (await import('../inbox/inbox-view')).InboxView);
export const TaskEditor = later(async () => (await import('../task-detail/task-editor')).TaskEditor);
export const TaskCreateForm = later(
  async () => (await import('../task-detail/task-create-form')).TaskCreateForm,
);
