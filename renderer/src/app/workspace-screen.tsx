// The signed-in window: sidebar, the current screen, the task editor beside
// it, the status bar, and the overlays (palette, shortcuts, problems).
import { useEffect } from 'react';
import { CommandPalette } from '../command-palette/command-palette';
import { useGlobalShortcuts } from '../command-palette/shortcuts';
import { ShortcutsHelp } from '../command-palette/shortcuts-help';
import { Sidebar, SidebarPlace } from './sidebar';
import { followNotificationClicks } from '../sync-center/notification-click';
import { StatusBar } from '../status-bar/status-bar';
import { useSession } from '../store/session-store';
import { followRemapsOfView, type ListScope, useView, type View } from '../store/view-store';
import { useRemaps } from '../data/use-remaps';
import {
  clearWorkspace,
  followWorkspaceChanges,
  loadWorkspace,
  useWorkspace,
} from '../store/workspace-store';
import { TaskList } from '../task-list/task-list';
import { NoticeBanner } from './notice-banner';
import {
  GoalsView,
  InboxView,
  MilestonesView,
  SavedViewScreen,
  SectionBoard,
  SprintView,
  SyncCenter,
  TaskCreateForm,
  TaskEditor,
  TriageView,
} from './later-screens';
import { TrustOverlays } from '../pending-changes/trust-overlays';
import { AfterFirstPaint } from '../ui/after-first-paint';
import { CompletionQuestion } from '../ui/completion-question';
import { UndoToast } from '../ui/undo-toast';

function listTitle(
  scope: ListScope,
  projectNames: ReadonlyMap<string, string>,
  teamNames: ReadonlyMap<string, string>,
) {
  switch (scope.kind) {
    case 'my-tasks':
      return 'My tasks';
    case 'all':
      return 'All tasks';
    case 'project':
      return projectNames.get(scope.projectId) ?? 'Project';
    case 'team':
      return teamNames.get(scope.teamId) ?? 'Team';
    case 'sub-tasks':
      return `Sub-tasks of ${scope.parentTitle}`;
  }
}

function MainView({ view }: { view: View }) {
  const projectNames = useWorkspace((state) => state.projectNames);
  const teamNames = useWorkspace((state) => state.teamNames);
  switch (view.kind) {
    case 'list':
      return <TaskList scope={view.scope} title={listTitle(view.scope, projectNames, teamNames)} />;
    case 'board':
      return <SectionBoard scopeType={view.scopeType} scopeId={view.scopeId} />;
    case 'sprint':
      return <SprintView sprintId={view.sprintId} />;
    case 'triage':
      return <TriageView teamId={view.teamId} />;
    case 'goals':
      return <GoalsView goalId={view.goalId} />;
    case 'milestones':
      return <MilestonesView projectId={view.projectId} />;
    case 'saved-view':
      return <SavedViewScreen viewId={view.viewId} />;
    case 'sync':
      return <SyncCenter tab={view.tab} />;
    case 'inbox':
      return <InboxView />;
  }
}

export function WorkspaceScreen() {
  const accountId = useSession((state) => state.current?.account_id ?? null);
  const view = useView((state) => state.view);
  const openTaskId = useView((state) => state.openTaskId);
  const creating = useView((state) => state.creating);
  const announcement = useView((state) => state.announcement);
  useGlobalShortcuts();
  // The view on show follows the ids the server gives what was created here (store/view-store.ts).
  useRemaps(followRemapsOfView);
  useEffect(() => followNotificationClicks(), []);

  useEffect(() => {
    clearWorkspace();
    void loadWorkspace();
    return followWorkspaceChanges();
  }, [accountId]);

  return (
    <div className={`app-shell${openTaskId !== null || creating ? ' has-editor' : ''}`}>
      {/* The rows first: the sidebar's lists are drawn a frame later, its place kept meanwhile. */}
      <AfterFirstPaint placeholder={<SidebarPlace />}>
        <Sidebar />
      </AfterFirstPaint>
      <main className="main-area" id="main">
        <NoticeBanner />
        {/* Keyed by account: switching shows the other account's lists from scratch, never a mix. */}
        <MainView key={accountId ?? ''} view={view} />
      </main>
      {creating ? (
        <TaskCreateForm />
      ) : openTaskId !== null ? (
        <TaskEditor key={openTaskId} taskId={openTaskId} />
      ) : null}
      <StatusBar />
      <CommandPalette />
      <ShortcutsHelp />
      <TrustOverlays />
      <CompletionQuestion />
      <UndoToast />
      <div className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  );
}
