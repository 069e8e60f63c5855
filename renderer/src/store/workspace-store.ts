// The current account's collections beside the tasks (projects, teams with
// sprints, goals, sections, members, tags) and their counts, with lookups by
// id for the screens. Reloaded, coalesced, when the mirror says they changed.
import { create } from 'zustand';
import type { SprintSummary, Workspace } from '../../../ipc/screen-schemas';
import { errorType, invoke } from '../bridge/svc';
import { followChanges } from '../data/follow-changes';
import { showProblem } from './session-store';

export interface WorkspaceState {
  workspace: Workspace | null;
  projectNames: ReadonlyMap<string, string>;
  teamNames: ReadonlyMap<string, string>;
  sectionNames: ReadonlyMap<string, string>;
  sprints: ReadonlyMap<string, SprintSummary>;
  goalNames: ReadonlyMap<string, string>;
  /** Which load this is, counted as workspaceLoadsAsked counts them (0: none yet). */
  load: number;
}

const EMPTY: WorkspaceState = {
  workspace: null,
  projectNames: new Map(),
  teamNames: new Map(),
  sectionNames: new Map(),
  sprints: new Map(),
  goalNames: new Map(),
  load: 0,
};

export const useWorkspace = create<WorkspaceState>(() => EMPTY);

function indexed(workspace: Workspace, load: number): WorkspaceState {
  return {
    workspace,
    load,
    projectNames: new Map(workspace.projects.map((p) => [p.project_id, p.name])),
    teamNames: new Map(workspace.teams.map((t) => [t.team_id, t.name])),
    sectionNames: new Map(workspace.sections.map((s) => [s.section_id, s.name])),
    sprints: new Map(workspace.teams.flatMap((t) => t.sprints.map((s) => [s.sprint_id, s] as const))),
    goalNames: new Map(workspace.goals.map((g) => [g.goal_id, g.name])),
  };
}

let loading: Promise<void> | null = null;
let again = false;
let asked = 0;

/**
 * How many loads have been asked of the mirror so far: a load numbered higher
 * than this count now reads what the mirror holds from now on (the board's
 * waiting moves wait for it).
 */
export function workspaceLoadsAsked(): number {
  return asked;
}

/** Loads the workspace; a call while one is running asks for one more load after it. */
export function loadWorkspace(): Promise<void> {
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      asked += 1;
      const load = asked;
      try {
        useWorkspace.setState(indexed(await invoke('workspace:get'), load));
      } catch (error) {
        if (errorType(error) !== 'signed-out') showProblem(error, 'Loading projects and teams');
      }
    } while (again);
  })().finally(() => {
    loading = null;
  });
  return loading;
}

export function clearWorkspace(): void {
  useWorkspace.setState(EMPTY);
}

/** Counts move with tasks too, so any change reloads, at most every `delayMs`. */
export function followWorkspaceChanges(delayMs = 400): () => void {
  return followChanges({ delayMs }, () => void loadWorkspace());
}
