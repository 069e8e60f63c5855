// The sidebar: the account switcher, then My tasks and All tasks, projects
// (each with its board), teams with their triage and sprints, goals and sections. Every
// entry is a button in a labelled navigation list; the current one says so.
// A team lists its newest sprints (with "All sprints (N)" opening the rest) and
// offers "New sprint"; a sprint takes a task dropped on it (from a list row or a
// board card) and files it there. Pinned views stand in pin order (saved-views/),
// the other saved views after them.
// It is part of the shell (app/) because it opens every feature's places.
import { KindConsentNotice, useMissingScope } from '../ui/kind-consent';
import { type ReactNode, type RefObject, useRef, useState } from 'react';
import type { SprintSummary, Workspace } from '../../../ipc/screen-schemas';
import { Question } from '../ui/question';
import { cancelSignOut, requestSignOut, signOut, switchAccount, useSession } from '../store/session-store';
import { announce, navigate, sameView, useView, type View } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { useInbox } from '../data/use-inbox';
import { useIntakeCounts } from '../data/use-intake';
import { fileIntoSprint } from '../sprints/file-into-sprint';
import { SprintFormDialog } from '../sprints/sprint-form';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { markOfState } from '../vocabulary/sync-mark-words';
import { carriesTask, droppedTask } from '../ui/task-drag';
import { useDropTarget } from '../ui/drop-target';
import { useViewSidebar } from '../data/use-view-sidebar';
import { PinnedViews } from '../saved-views/pinned-views';
import './sidebar.css';

function NavItem({
  view,
  label,
  detail,
  badge,
  badgeWords,
  unseenLabel,
}: {
  view: View;
  label: string;
  detail?: string;
  badge?: string;
  /** What the badge counts, said after it to a screen reader ("3 waiting for review"). */
  badgeWords?: string;
  /**
   * Words of the name a screen reader says after the label, where the label
   * alone is ambiguous (each team has a Triage). Part of the text, not an
   * aria-label: a name of its own would have to contain every word shown.
   */
  unseenLabel?: string;
}) {
  const current = useView((state) => sameView(state.view, view));
  return (
    <li>
      <button
        type="button"
        className={`nav-item${current ? ' is-current' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={() => navigate(view)}
      >
        <span className="nav-label">
          {label}
          {unseenLabel === undefined ? null : <span className="visually-hidden"> {unseenLabel}</span>}
        </span>
        {badge ? (
          <span className="nav-badge">
            {badge}
            {badgeWords === undefined ? null : <span className="visually-hidden"> {badgeWords}</span>}
          </span>
        ) : null}
        {detail ? <span className="nav-detail">{detail}</span> : null}
      </button>
    </li>
  );
}

/** The inbox, with how many of its entries are unread (the tray counts the same). */
function InboxNavItem() {
  const unread = useInbox().data?.unread ?? 0;
  return (
    <NavItem view={{ kind: 'inbox' }} label="Inbox" {...(unread > 0 ? { badge: String(unread) } : {})} />
  );
}

/** A team's triage, with how many of its tasks wait for review (the screen lists the same). */
function TriageNavItem({ team, waiting }: { team: { team_id: string; name: string }; waiting: number }) {
  return (
    <NavItem
      view={{ kind: 'triage', teamId: team.team_id }}
      label="Triage"
      unseenLabel={team.name}
      {...(waiting > 0 ? { badge: String(waiting), badgeWords: 'waiting for review' } : {})}
    />
  );
}

/** How many of a team's sprints (newest first) the sidebar lists; current and waiting ones always. */
const SPRINTS_SHOWN = 4;

function SprintNavItem({ sprint, readOnly }: { sprint: SprintSummary; readOnly: boolean }) {
  const view: View = { kind: 'sprint', sprintId: sprint.sprint_id };
  const current = useView((state) => sameView(state.view, view));
  const mark = markOfState(sprint.pending);
  const drop = useDropTarget(
    (event) => !readOnly && carriesTask(event),
    'move',
    (event) => {
      const taskId = droppedTask(event);
      if (taskId !== null) void fileIntoSprint(taskId, event.dataTransfer.getData('text/plain'), sprint);
    },
  );
  return (
    <li
      className={`nav-drop${drop.over ? ' is-drop-target' : ''}`}
      data-sprint-id={sprint.sprint_id}
      {...drop.handlers}
    >
      <button
        type="button"
        className={`nav-item${current ? ' is-current' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={() => navigate(view)}
      >
        <span className="nav-label">{sprint.name}</span>
        {sprint.current ? <span className="nav-badge">current</span> : null}
        <SyncMarkBadge mark={mark} compact kinds="sprints" />
        <span className="nav-detail">
          {sprint.completed_count}/{sprint.task_count}
        </span>
      </button>
    </li>
  );
}

function TeamSprints({
  team,
  readOnly,
  sprintsReadOnly,
}: {
  team: Workspace['teams'][number];
  readOnly: boolean;
  /** The sign-in may not change sprints (its scope): New sprint is shown disabled, pointing at the reason. */
  sprintsReadOnly: boolean;
}) {
  const [creating, setCreating] = useState(false);
  const [all, setAll] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  const newest = team.sprints.filter(
    (sprint, index) => index < SPRINTS_SHOWN || sprint.current || sprint.pending !== undefined,
  );
  const hidden = team.sprints.length - newest.length;
  const shown = all ? team.sprints : newest;
  return (
    <>
      {shown.map((sprint) => (
        <SprintNavItem key={sprint.sprint_id} sprint={sprint} readOnly={readOnly} />
      ))}
      {hidden > 0 ? (
        <li>
          {/* A disclosure: the older sprints appear above it, in the same list, and it keeps the focus. */}
          <button
            type="button"
            className="nav-item nav-add"
            aria-expanded={all}
            aria-label={`All sprints in ${team.name} (${team.sprints.length})`}
            onClick={() => {
              setAll(!all);
              announce(
                all
                  ? `Showing the newest sprints of ${team.name}.`
                  : `Showing all ${team.sprints.length} sprints of ${team.name}.`,
              );
            }}
          >
            <span aria-hidden="true">{all ? '▴' : '▾'}</span>
            <span className="nav-label">
              {all ? 'Fewer sprints' : `All sprints (${team.sprints.length})`}
            </span>
          </button>
        </li>
      ) : null}
      {readOnly ? null : (
        <li>
          <button
            ref={newButton}
            type="button"
            className="nav-item nav-add"
            aria-label={`New sprint in ${team.name}`}
            disabled={sprintsReadOnly}
            {...(sprintsReadOnly
              ? { 'aria-describedby': 'consent-sprint', title: 'This sign-in may not change sprints' }
              : {})}
            onClick={() => setCreating(true)}
          >
            <span aria-hidden="true">+</span>
            <span className="nav-label">New sprint</span>
          </button>
          {creating ? (
            <SprintFormDialog
              target={{ mode: 'create', teamId: team.team_id, teamName: team.name }}
              onClose={() => setCreating(false)}
              returnFocus={newButton}
            />
          ) : null}
        </li>
      )}
    </>
  );
}

function NavGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = `nav-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="nav-group" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul>{children}</ul>
    </section>
  );
}

/** Section scopes that have sections, named for the sidebar. */
function boards(
  workspace: Workspace,
): { scopeType: string; scopeId: string; name: string; sections: number }[] {
  const projectNames = new Map(workspace.projects.map((p) => [p.project_id, p.name]));
  const teamNames = new Map(workspace.teams.map((t) => [t.team_id, t.name]));
  const byScope = new Map<string, { scopeType: string; scopeId: string; name: string; sections: number }>();
  for (const section of workspace.sections) {
    const key = `${section.scope_type}:${section.scope_id}`;
    const found = byScope.get(key);
    if (found) {
      found.sections++;
      continue;
    }
    const name =
      section.scope_type === 'user'
        ? 'My board'
        : section.scope_type === 'team'
          ? (teamNames.get(section.scope_id) ?? section.scope_id)
          : (projectNames.get(section.scope_id) ?? section.scope_id);
    byScope.set(key, { scopeType: section.scope_type, scopeId: section.scope_id, name, sections: 1 });
  }
  const order = { user: 0, project: 1, team: 2 } as Record<string, number>;
  return [...byScope.values()].sort(
    (a, b) => (order[a.scopeType] ?? 3) - (order[b.scopeType] ?? 3) || a.name.localeCompare(b.name),
  );
}

/** The server's host, to tell apart two accounts of the same name on different servers. */
function serverHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Signing out with changes still unsent: keep them for the next sign-in (the default), or drop them. */
function SignOutConfirm({
  accountId,
  waiting,
  returnFocus,
}: {
  accountId: string;
  waiting: number;
  returnFocus: RefObject<HTMLButtonElement | null>;
}) {
  const signOutKeeping = (keep: boolean) => {
    cancelSignOut();
    void signOut(accountId, keep);
  };
  return (
    <Question
      label="Sign out with unsent changes?"
      confirmLabel="Keep and sign out"
      onConfirm={() => signOutKeeping(true)}
      onCancel={cancelSignOut}
      returnFocus={returnFocus}
      otherChoices={
        <button type="button" className="button danger-ghost" onClick={() => signOutKeeping(false)}>
          Discard and sign out
        </button>
      }
    >
      {waiting === 1 ? '1 change has' : `${waiting} changes have`} not reached the server yet. Keep{' '}
      {waiting === 1 ? 'it' : 'them'} for when you sign in again?
    </Question>
  );
}

function AccountSwitcher() {
  const accounts = useSession((state) => state.accounts);
  const current = useSession((state) => state.current);
  const signOutRequest = useSession((state) => state.signOutRequest);
  const [open, setOpen] = useState(false);
  // A menu entry closes the menu, then does what it says.
  const closingMenu = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  const accountButton = useRef<HTMLButtonElement>(null);
  if (current === null) return null;
  return (
    <div className="account-switcher">
      <button
        ref={accountButton}
        type="button"
        className="account-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        <span className="avatar" aria-hidden="true">
          {current.username.slice(0, 1).toUpperCase()}
        </span>
        <span className="account-text">
          <span className="account-name">{current.org_name ?? current.org_id}</span>
          <span className="account-user">
            {current.username}
            {current.demo ? ' · demo' : ''}
            {current.read_only ? ' · read-only' : ''}
          </span>
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <ul
          className="account-menu"
          role="menu"
          aria-label="Accounts"
          onKeyDown={(event) => {
            if (event.key === 'Escape') setOpen(false);
          }}
        >
          {accounts
            .filter((account) => account.account_id !== current.account_id)
            .map((account) => (
              <AccountMenuItem
                key={account.account_id}
                onChoose={closingMenu(() => void switchAccount(account.account_id))}
              >
                Switch to {account.username} · {account.org_name ?? account.org_id}
                {account.demo ? ' (demo)' : ` (${serverHost(account.server.base_url)})`}
                {account.state === 'signed-out' ? ' · signed out' : ''}
              </AccountMenuItem>
            ))}
          <AccountMenuItem onChoose={closingMenu(() => useSession.setState({ addingAccount: true }))}>
            Add an account…
          </AccountMenuItem>
          <AccountMenuItem onChoose={closingMenu(() => requestSignOut(current.account_id))}>
            Sign out of {current.username}
          </AccountMenuItem>
        </ul>
      ) : null}
      {signOutRequest !== null ? (
        <SignOutConfirm
          accountId={signOutRequest.accountId}
          waiting={signOutRequest.waiting}
          returnFocus={accountButton}
        />
      ) : null}
    </div>
  );
}

/** One entry of the account menu: a menu item in its presentational list item. */
function AccountMenuItem({ onChoose, children }: { onChoose: () => void; children: ReactNode }) {
  return (
    <li role="none">
      <button type="button" role="menuitem" onClick={onChoose}>
        {children}
      </button>
    </li>
  );
}

/** The sidebar's root, empty: keeps its place (and its landmark) until its lists are drawn. */
export function SidebarPlace() {
  return <SidebarRoot />;
}

function SidebarRoot({ children }: { children?: ReactNode }) {
  return (
    <nav className="sidebar" aria-label="Workspace">
      {children}
    </nav>
  );
}

export function Sidebar() {
  const workspace = useWorkspace((state) => state.workspace);
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const sprintsReadOnly = useMissingScope('sprint') !== null;
  const boardList = workspace === null ? [] : boards(workspace);
  const views = useViewSidebar();
  const intakeCounts = useIntakeCounts();
  const pinned = new Set(views?.pins.map((pin) => pin.view_id) ?? []);
  const unpinned = views?.views.filter((view) => !pinned.has(view.view_id)) ?? [];
  return (
    <SidebarRoot>
      <AccountSwitcher />
      <div className="sidebar-scroll">
        <ul className="nav-top">
          <InboxNavItem />
          <NavItem view={{ kind: 'list', scope: { kind: 'my-tasks' } }} label="My tasks" />
          <NavItem view={{ kind: 'list', scope: { kind: 'all' } }} label="All tasks" />
          <NavItem view={{ kind: 'goals', goalId: null }} label="Goals" />
          <NavItem view={{ kind: 'sync', tab: 'status' }} label="Sync" />
        </ul>
        {views && views.pins.length > 0 ? (
          <NavGroup title="Pinned views">
            <PinnedViews sidebar={views} readOnly={readOnly} />
          </NavGroup>
        ) : null}
        {unpinned.length > 0 ? (
          <NavGroup title="Saved views">
            {unpinned.map((view) => (
              <NavItem
                key={view.view_id}
                view={{ kind: 'saved-view', viewId: view.view_id }}
                label={view.name}
              />
            ))}
          </NavGroup>
        ) : null}
        {workspace && workspace.projects.length > 0 ? (
          <NavGroup title="Projects">
            {workspace.projects.map((project) => (
              <NavItem
                key={project.project_id}
                view={{ kind: 'list', scope: { kind: 'project', projectId: project.project_id } }}
                label={project.name}
                {...(project.status === 'archived' ? { badge: 'archived' } : {})}
              />
            ))}
          </NavGroup>
        ) : null}
        {workspace && workspace.teams.length > 0 ? (
          <NavGroup title="Teams">
            {workspace.teams.map((team) => (
              <li key={team.team_id} className="nav-team">
                <ul>
                  <NavItem
                    view={{ kind: 'list', scope: { kind: 'team', teamId: team.team_id } }}
                    label={team.name}
                  />
                  <TriageNavItem team={team} waiting={intakeCounts[team.team_id] ?? 0} />
                  <TeamSprints team={team} readOnly={readOnly} sprintsReadOnly={sprintsReadOnly} />
                </ul>
              </li>
            ))}
            {readOnly ? null : (
              <li>
                <KindConsentNotice kind="sprint" plural="sprints" />
              </li>
            )}
          </NavGroup>
        ) : null}
        {boardList.length > 0 ? (
          <NavGroup title="Sections">
            {boardList.map((board) => (
              <NavItem
                key={`${board.scopeType}:${board.scopeId}`}
                view={{ kind: 'board', scopeType: board.scopeType, scopeId: board.scopeId }}
                label={board.name}
                detail={`${board.sections}`}
              />
            ))}
          </NavGroup>
        ) : null}
      </div>
    </SidebarRoot>
  );
}
