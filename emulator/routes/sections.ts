// Sections: groups of tasks in a project, team or user scope. Listed for one
// scope or every scope the caller can read; names are unique in their scope
// (409); deleting one leaves its tasks unsectioned.
import type { FastifyInstance } from 'fastify';
import { sectionCreateBodySchema, sectionUpdateBodySchema } from '../../protocol/section';
import { parseOr422, fieldProblem } from '../body-validation';
import { type EmulatorContext, orgListRequest, requireOwnOrg, viewerFor } from '../emulator-context';
import { sendKeyedList } from '../json-reply';
import { compareText, invalidParameter, parseSort, positionAfter } from '../paging';
import { ProblemReply } from '../problem';
import { unfileTasks } from '../task-changes';
import { type SectionRecord, SECTIONS, type SectionScopeType } from '../records';
import { canSeeProject, type EmulatorStore, type Viewer } from '../store';
import { recordRoutes } from './record-routes';
import { authored, sendCreated, storeCreated, storeIfChanged } from './record-writes';

const SCOPE_TYPES = ['project', 'team', 'user'] as const;
const SORT_KEYS = ['position', 'name', 'created_at'] as const;

export function canReadScope(
  store: EmulatorStore,
  viewer: Viewer,
  type: SectionScopeType,
  scopeId: string,
): boolean {
  switch (type) {
    case 'project':
      return store.projects.has(scopeId) && canSeeProject(viewer, scopeId);
    case 'team':
      return store.teams.has(scopeId);
    case 'user':
      return scopeId === viewer.username;
  }
}

export function serializeSection(
  store: EmulatorStore,
  viewer: Viewer,
  s: SectionRecord,
): Record<string, unknown> {
  return {
    section_id: s.section_id,
    org_id: s.org_id,
    name: s.name,
    scope_type: s.scope_type,
    scope_id: s.scope_id,
    position: s.position,
    task_count: store.taskCounts(viewer).section_id.get(s.section_id)?.total ?? 0,
    created_by: s.created_by,
    updated_by: s.updated_by,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

function readableSection(
  store: EmulatorStore,
  viewer: Viewer,
  { section_id: sectionId }: { section_id: string },
): SectionRecord {
  const section = store.records(SECTIONS).get(sectionId);
  if (!section || !canReadScope(store, viewer, section.scope_type, section.scope_id)) {
    throw new ProblemReply(404, null, 'Not Found', `section ${sectionId} not found`);
  }
  return section;
}

function requireUniqueName(
  store: EmulatorStore,
  scope: { scope_type: string; scope_id: string },
  name: string,
  except?: string,
) {
  const lower = name.toLowerCase();
  for (const s of store.records(SECTIONS).values()) {
    if (
      s.section_id !== except &&
      s.scope_type === scope.scope_type &&
      s.scope_id === scope.scope_id &&
      s.name.toLowerCase() === lower
    ) {
      throw new ProblemReply(
        409,
        null,
        'Conflict',
        `A section named '${s.name}' already exists in this ${s.scope_type}.`,
      );
    }
  }
}

function endPosition(
  store: EmulatorStore,
  scope: { scope_type: string; scope_id: string },
  except?: string,
): number {
  return positionAfter(
    [...store.records(SECTIONS).values()].filter(
      (s) => s.section_id !== except && s.scope_type === scope.scope_type && s.scope_id === scope.scope_id,
    ),
  );
}

function sectionValue(s: SectionRecord, sortBy: (typeof SORT_KEYS)[number]): string | number {
  return s[sortBy];
}

function compareSectionValue(
  sortBy: (typeof SORT_KEYS)[number],
  a: string | number,
  b: string | number,
): number {
  if (sortBy === 'position') return Number(a) - Number(b);
  return compareText(String(a), String(b));
}

export function registerSectionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const sections = recordRoutes(app, ctx, '/v1/sections/:section_id', {
    scope: 'tasks',
    // A 404 when the section's scope is out of their reach.
    find: readableSection,
    serialize: serializeSection,
  });

  sections.list((request, reply) => {
    const { params, viewer } = orgListRequest(ctx, request);
    const scopeType = params.get('scope_type');
    const scopeId = params.get('scope_id');
    if (scopeType !== null && !(SCOPE_TYPES as readonly string[]).includes(scopeType)) {
      throw invalidParameter('scope_type', `scope_type cannot be '${scopeType}'`, SCOPE_TYPES);
    }
    const sort = parseSort(params, SORT_KEYS, 'position');
    return sendKeyedList(ctx, request, reply, {
      queryKey: `sections\u0000${viewer.username}\u0000${scopeType ?? ''}\u0000${scopeId ?? ''}\u0000${sort.sortBy}`,
      items: [...store.records(SECTIONS).values()].filter(
        (s) =>
          (scopeType === null || s.scope_type === scopeType) &&
          (scopeId === null || s.scope_id === scopeId) &&
          canReadScope(store, viewer, s.scope_type, s.scope_id),
      ),
      order: sort.sortOrder,
      defaultLimit: 100,
      params,
      sortedBy: {
        value: (s) => sectionValue(s, sort.sortBy),
        id: (s) => s.section_id,
        compare: (a, b) => compareSectionValue(sort.sortBy, a, b),
      },
      serialize: (s) => serializeSection(store, viewer, s),
    });
  });

  sections.get();

  sections.create((request, reply) => {
    const input = parseOr422(sectionCreateBodySchema, request.body, 'body');
    requireOwnOrg(ctx, input.org_id, ['body', 'org_id']);
    const viewer = viewerFor(ctx, request);
    if (!canReadScope(store, viewer, input.scope_type, input.scope_id)) {
      const expected =
        input.scope_type === 'user' ? 'your own username' : `the id of a ${input.scope_type} you can read`;
      throw fieldProblem(['body', 'scope_id'], `scope_id must be ${expected}`);
    }
    requireUniqueName(store, input, input.name);
    const section: SectionRecord = {
      section_id: store.newId('sec'),
      org_id: store.org.org_id,
      name: input.name,
      scope_type: input.scope_type,
      scope_id: input.scope_id,
      position: input.position ?? endPosition(store, input),
      ...authored(viewer, store.nowIso()),
    };
    storeCreated(store, SECTIONS, section.section_id, section);
    return sendCreated(
      request,
      reply,
      `/v1/sections/${section.section_id}`,
      serializeSection(store, viewer, section),
    );
  });

  sections.update({ body: sectionUpdateBodySchema }, ({ viewer, record: section, patch }) => {
    const next: SectionRecord = { ...section };
    if (patch.name !== undefined) {
      requireUniqueName(store, section, patch.name, section.section_id);
      next.name = patch.name;
    }
    if (patch.position !== undefined)
      next.position = patch.position ?? endPosition(store, section, section.section_id);
    storeIfChanged(store, store.records(SECTIONS), next.section_id, section, next, viewer);
    return next;
  });

  sections.delete((request, reply, { record: section }) => {
    store.records(SECTIONS).delete(section.section_id);
    unfileTasks(store, 'section_id', section.section_id);
    store.touch();
    return reply.code(204).send();
  });
}
