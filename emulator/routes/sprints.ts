// Sprints of a team: listed latest first (completed ones too) with `total`;
// created and changed under the contract's rules — a name unique among the
// team's active sprints (case-insensitive, 409), never both `end_date` and
// `duration_weeks` (422); the end date is stored and the weeks derived.
import type { FastifyInstance } from 'fastify';
import { sprintCreateBodySchema, sprintUpdateBodySchema } from '../../protocol/sprint';
import { fieldProblem, parseOr422 } from '../body-validation';
import { type EmulatorContext, viewerFor } from '../emulator-context';
import { sendKeyedList } from '../json-reply';
import { compareCodePoints, compareText, parseSort, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { type SprintRecord, SPRINTS, type TeamRecord } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { type FoundRecord, recordRoutes } from './record-routes';
import { assignDefined, authored, sendCreated, storeCreated, storeIfChanged } from './record-writes';

const DAY = 86_400_000;
const SORT_KEYS = ['start_date', 'end_date', 'name', 'created_at'] as const;
/** Lengths offered as presets; any other length is labelled `Custom`. */
const PRESET_WEEKS = new Set([1, 2, 3, 4]);
const DEFAULT_WEEKS = 2;

export function sprintDuration(startDate: string, endDate: string): { weeks: number | null; label: string } {
  const days = Math.round((Date.parse(endDate) - Date.parse(startDate)) / DAY) + 1;
  const weeks = days % 7 === 0 && days / 7 >= 1 && days / 7 <= 52 ? days / 7 : null;
  const label =
    weeks !== null && PRESET_WEEKS.has(weeks) ? `${weeks} week${weeks === 1 ? '' : 's'}` : 'Custom';
  return { weeks, label };
}

function endFromWeeks(startDate: string, weeks: number): string {
  return new Date(Date.parse(startDate) + (weeks * 7 - 1) * DAY).toISOString().slice(0, 10);
}

export function serializeSprint(
  store: EmulatorStore,
  viewer: Viewer,
  s: SprintRecord,
): Record<string, unknown> {
  const counts = store.taskCounts(viewer).sprint_id.get(s.sprint_id);
  const duration = sprintDuration(s.start_date, s.end_date);
  return {
    ...s,
    duration_weeks: duration.weeks,
    duration_label: duration.label,
    task_count: counts?.total ?? 0,
    completed_count: counts?.completed ?? 0,
  };
}

function teamOr404(store: EmulatorStore, teamId: string): TeamRecord {
  const team = store.teams.get(teamId);
  if (!team) throw new ProblemReply(404, null, 'Not Found', `team ${teamId} not found`);
  return team;
}

/** Team members and the organization's owners and admins may change a team's sprints. */
function requireTeamEditor(store: EmulatorStore, viewer: Viewer, team: TeamRecord): void {
  const onTeam = (store.teamMembers.get(team.team_id) ?? []).some((m) => m.user_id === viewer.member.user_id);
  if (!onTeam && viewer.member.role === 'member') {
    throw new ProblemReply(403, null, 'Forbidden', `You cannot edit the sprints of team ${team.name}.`);
  }
}

/** The active sprint a path names, of a team that exists (404 otherwise). */
function readableSprint(
  store: EmulatorStore,
  _viewer: Viewer,
  { team_id: teamId, sprint_id: sprintId }: { team_id: string; sprint_id: string },
): SprintRecord {
  teamOr404(store, teamId);
  const sprint = store.records(SPRINTS).get(sprintId);
  if (!sprint || sprint.team_id !== teamId || !sprint.is_active) {
    throw new ProblemReply(404, null, 'Not Found', `sprint ${sprintId} not found`);
  }
  return sprint;
}

function requireUniqueActiveName(store: EmulatorStore, teamId: string, name: string, except?: string): void {
  const lower = name.toLowerCase();
  for (const s of store.records(SPRINTS).values()) {
    if (
      s.sprint_id !== except &&
      s.team_id === teamId &&
      s.is_active &&
      s.status === 'active' &&
      s.name.toLowerCase() === lower
    ) {
      throw new ProblemReply(
        409,
        null,
        'Conflict',
        `The team already has an active sprint named '${s.name}'.`,
      );
    }
  }
}

function sprintValue(s: SprintRecord, sortBy: (typeof SORT_KEYS)[number]): string {
  return s[sortBy];
}

export function registerSprintRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  type TeamParams = { team_id: string };
  const sprints = recordRoutes(app, ctx, '/v1/teams/:team_id/sprints/:sprint_id', {
    scope: 'teams',
    find: readableSprint,
    serialize: serializeSprint,
  });

  sprints.list<TeamParams>((request, reply) => {
    const params = queryPairs(request.url);
    const team = teamOr404(store, request.params.team_id);
    const viewer = viewerFor(ctx, request);
    const sort = parseSort(params, SORT_KEYS, 'start_date');
    // Latest first unless the caller asks for an order.
    const order =
      params.get('sort_by') === null && params.get('sort_order') === null ? 'desc' : sort.sortOrder;
    const compare = (a: string, b: string) =>
      sort.sortBy === 'name' ? compareText(a, b) : compareCodePoints(a, b);
    const teamSprints = [...store.records(SPRINTS).values()].filter(
      (s) => s.team_id === team.team_id && s.is_active,
    );
    return sendKeyedList(ctx, request, reply, {
      queryKey: `sprints\u0000${team.team_id}\u0000${sort.sortBy}\u0000${order}`,
      items: teamSprints,
      order,
      defaultLimit: 1000,
      params,
      sortedBy: { value: (s) => sprintValue(s, sort.sortBy), id: (s) => s.sprint_id, compare: compare },
      serialize: (s) => serializeSprint(store, viewer, s),
      extra: { total: teamSprints.length },
    });
  });

  sprints.get();

  sprints.create<TeamParams>((request, reply) => {
    const team = teamOr404(store, request.params.team_id);
    const viewer = viewerFor(ctx, request);
    requireTeamEditor(store, viewer, team);
    const input = parseOr422(sprintCreateBodySchema, request.body, 'body');
    const endDate = input.end_date ?? endFromWeeks(input.start_date, input.duration_weeks ?? DEFAULT_WEEKS);
    if (endDate < input.start_date) throw fieldProblem(['body', 'end_date'], 'end_date is before start_date');
    requireUniqueActiveName(store, team.team_id, input.name);
    const sprint: SprintRecord = {
      sprint_id: store.newId('spr'),
      org_id: store.org.org_id,
      team_id: team.team_id,
      name: input.name,
      description: input.description ?? null,
      goal: input.goal ?? null,
      start_date: input.start_date,
      end_date: endDate,
      status: 'active',
      completed_at: null,
      completed_by: null,
      ...authored(viewer, store.nowIso()),
      is_active: true,
    };
    storeCreated(store, SPRINTS, sprint.sprint_id, sprint);
    const location = `/v1/teams/${team.team_id}/sprints/${sprint.sprint_id}`;
    return sendCreated(request, reply, location, serializeSprint(store, viewer, sprint));
  });

  /** Team members and the organization's owners and admins may change a sprint (403). */
  const requireSprintEditor = ({ viewer, record }: FoundRecord<SprintRecord>) =>
    requireTeamEditor(store, viewer, teamOr404(store, record.team_id));
  sprints.update(
    { body: sprintUpdateBodySchema, mayChange: requireSprintEditor },
    ({ viewer, record: sprint, patch }) => {
      const next: SprintRecord = { ...sprint };
      assignDefined(next, patch, ['name', 'description', 'goal', 'start_date', 'end_date']);
      if (patch.duration_weeks != null) next.end_date = endFromWeeks(next.start_date, patch.duration_weeks);
      if (next.end_date < next.start_date)
        throw fieldProblem(['body', 'end_date'], 'end_date is before start_date');
      const now = store.nowIso();
      if (patch.status !== undefined && patch.status !== sprint.status) {
        next.status = patch.status;
        next.completed_at = patch.status === 'completed' ? now : null;
        next.completed_by = patch.status === 'completed' ? viewer.username : null;
      }
      if (next.status === 'active' && (next.name !== sprint.name || sprint.status !== 'active')) {
        requireUniqueActiveName(store, sprint.team_id, next.name, sprint.sprint_id);
      }
      storeIfChanged(store, store.records(SPRINTS), next.sprint_id, sprint, next, viewer, now);
      return next;
    },
  );
}
