// Teams: the list ordered by name with `total` and a name search, a team's
// detail with its members, and PATCH (plus the deprecated PUT) for the team
// owner or an organization owner or admin.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseOr422, text } from '../body-validation';
import { type EmulatorContext, viewerFor, requireOwnOrg } from '../emulator-context';
import { sendKeyedList } from '../json-reply';
import { compareText, parseSort, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import type { TeamRecord } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { type FoundRecord, recordRoutes } from './record-routes';
import { storeIfChanged } from './record-writes';

const teamPatchSchema = z.object({
  // `null` leaves the name as it is: a team always has one.
  name: text(1, 120).nullable().optional(),
  description: text(0, 2000).nullable().optional(),
});
const teamsQuerySchema = z.object({ org_id: z.string().min(1) });

export function serializeTeam(
  store: EmulatorStore,
  viewer: Viewer,
  team: TeamRecord,
): Record<string, unknown> {
  const members = store.teamMembers.get(team.team_id) ?? [];
  let projectCount = 0;
  for (const p of store.projects.values()) if (p.team_id === team.team_id) projectCount += 1;
  return {
    ...team,
    member_count: members.length,
    project_count: projectCount,
    team_role: members.find((m) => m.user_id === viewer.member.user_id)?.team_role ?? null,
  };
}

function serializeTeamDetail(
  store: EmulatorStore,
  viewer: Viewer,
  team: TeamRecord,
): Record<string, unknown> {
  return { ...serializeTeam(store, viewer, team), members: store.teamMembers.get(team.team_id) ?? [] };
}

function teamOr404(store: EmulatorStore, teamId: string): TeamRecord {
  const team = store.teams.get(teamId);
  if (!team) throw new ProblemReply(404, null, 'Not Found', `team ${teamId} not found`);
  return team;
}

export function registerTeamRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const teams = recordRoutes(app, ctx, '/v1/teams/:team_id', {
    scope: 'teams',
    find: (store, _viewer, params: { team_id: string }) => teamOr404(store, params.team_id),
    serialize: serializeTeamDetail,
  });

  teams.list((request, reply) => {
    const params = queryPairs(request.url);
    const { org_id: orgId } = parseOr422(teamsQuerySchema, Object.fromEntries(params), 'query');
    requireOwnOrg(ctx, orgId, ['query', 'org_id']);
    const viewer = viewerFor(ctx, request);
    const sort = parseSort(params, ['name'] as const, 'name');
    const search = params.get('search')?.toLowerCase() ?? '';
    const matching = [...store.teams.values()].filter(
      (t) => t.is_active && t.name.toLowerCase().includes(search),
    );
    return sendKeyedList(ctx, request, reply, {
      queryKey: `teams\u0000${search}\u0000${sort.sortOrder}`,
      items: matching,
      order: sort.sortOrder,
      defaultLimit: 50,
      params,
      sortedBy: { value: (t) => t.name, id: (t) => t.team_id, compare: compareText },
      serialize: (t) => serializeTeam(store, viewer, t),
      extra: { total: matching.length },
    });
  });

  teams.get();

  /** The team owner, and the organization's owners and admins, may change a team (403 for anyone else). */
  const requireTeamOwner = ({ viewer, record: team }: FoundRecord<TeamRecord>) => {
    const owner = (store.teamMembers.get(team.team_id) ?? []).some(
      (m) => m.user_id === viewer.member.user_id && m.team_role === 'owner',
    );
    if (!owner && viewer.member.role === 'member') {
      throw new ProblemReply(
        403,
        null,
        'Forbidden',
        'Only the team owner or an organization owner or admin may change a team.',
      );
    }
  };
  teams.update(
    { body: teamPatchSchema, mayChange: requireTeamOwner, deprecatedPut: true },
    ({ viewer, record: team, patch }) => {
      const next: TeamRecord = { ...team };
      if (patch.name != null) next.name = patch.name;
      if (patch.description !== undefined) next.description = patch.description;
      storeIfChanged(store, store.teams, next.team_id, team, next, viewer);
      return next;
    },
  );
}
