// Deterministic seed data: one organization with members (the main member
// `ada`, the peer `grace`), teams, projects, sections in every scope, sprints
// (completed, current, upcoming), goals, milestones (some tasks filed under
// them), and `taskCount` tasks covering every
// status, priority, type, review and origin, with unicode and long texts.
// Dates are laid out around the clock's current UTC day, so "overdue" and "the
// current sprint" mean something whatever the day; with the same seed and day
// (or a ManualClock) every id, text and date is the same.
import { DeterministicRandom } from './deterministic-random';
import {
  type CommentRecord,
  type GoalRecord,
  GOALS,
  type MilestoneRecord,
  MILESTONES,
  type OrganizationMemberRecord,
  type ProjectRecord,
  type SectionRecord,
  SECTIONS,
  type SprintRecord,
  SPRINTS,
  type TaskRecord,
  type TeamMemberRecord,
  type TeamRecord,
} from './records';
import { creationHistory, type EmulatorStore, TaskEntry } from './store';

export const MAIN_USERNAME = 'ada';
export const PEER_USERNAME = 'grace';

const DAY = 86_400_000;

interface SeedMember {
  username: string;
  role: OrganizationMemberRecord['role'];
  designation: string | null;
  kind?: OrganizationMemberRecord['kind'];
  inactive?: boolean;
}

const MEMBERS: SeedMember[] = [
  { username: MAIN_USERNAME, role: 'owner', designation: 'Engineering Manager' },
  { username: PEER_USERNAME, role: 'member', designation: 'Software Engineer' },
  { username: 'linus', role: 'admin', designation: 'Staff Engineer' },
  { username: 'margaret', role: 'member', designation: 'Software Engineer' },
  { username: 'alan', role: 'member', designation: 'QA Engineer' },
  { username: 'barbara', role: 'member', designation: 'Product Manager' },
  { username: 'edsger', role: 'member', designation: null },
  { username: 'katherine', role: 'member', designation: 'Designer' },
  { username: 'dennis', role: 'member', designation: 'Software Engineer' },
  { username: 'frances', role: 'admin', designation: 'Data Scientist' },
  { username: 'ken', role: 'member', designation: 'Site Reliability Engineer' },
  { username: 'radia', role: 'member', designation: 'Network Engineer' },
  { username: 'hedy', role: 'member', designation: 'Software Engineer', inactive: true },
  { username: 'sa-ci-bot', role: 'member', designation: null, kind: 'service_account' },
];

const TEAMS: { name: string; description: string | null; owner: string; members: string[] }[] = [
  {
    name: 'Platform',
    description: 'APIs, storage and the build.',
    owner: 'ada',
    members: ['grace', 'linus', 'margaret'],
  },
  {
    name: 'Mobile',
    description: 'iOS and Android apps.',
    owner: 'grace',
    members: ['ada', 'alan', 'barbara'],
  },
  { name: 'Design Systems', description: null, owner: 'katherine', members: ['dennis', 'edsger'] },
  {
    name: 'Équipe Données 数据',
    description: 'Analytics — métriques et tableaux de bord. 📊',
    owner: 'frances',
    members: ['ken', 'radia'],
  },
];

const PROJECTS: {
  name: string;
  team: number | null;
  status: ProjectRecord['status'];
  description: string | null;
}[] = [
  { name: 'Apollo Guidance', team: 0, status: 'active', description: 'Core routing and scheduling service.' },
  { name: 'Billing Revamp', team: 0, status: 'active', description: 'Invoices, dunning and tax.' },
  { name: 'Mobile App 3.0', team: 1, status: 'active', description: 'The next major release of the apps.' },
  { name: 'Design Tokens', team: 2, status: 'active', description: null },
  {
    name: 'Ünïcødé & Émoji 🚀 Research',
    team: null,
    status: 'active',
    description: 'Text handling: RTL, CJK, 😀.',
  },
  { name: 'Legacy Migration', team: 0, status: 'archived', description: 'Moved off the old monolith.' },
];

const GOAL_NAMES = [
  'Ship v1 to every customer',
  'Reduce p95 latency below 200 ms',
  'Accessibility: WCAG 2.2 AA',
  'Zero data-loss incidents',
  'Cut onboarding time in half',
  'Internationalise every screen 🌍',
];

/** Milestones per project, by project index; a project past the list has none. */
const SEEDED_MILESTONES: { name: string; status: 'open' | 'completed'; dueInDays: number | null }[][] = [
  [
    { name: 'Alpha', status: 'completed', dueInDays: -20 },
    { name: 'Beta', status: 'open', dueInDays: 10 },
    { name: 'GA 🚀', status: 'open', dueInDays: null },
  ],
  [{ name: 'Invoices v2', status: 'open', dueInDays: 25 }],
  [
    { name: 'Feature freeze', status: 'open', dueInDays: 5 },
    { name: 'Store submission', status: 'open', dueInDays: 30 },
  ],
  [],
  [{ name: 'Première étape — 第一阶段', status: 'open', dueInDays: 45 }],
  [{ name: 'Cut-over', status: 'completed', dueInDays: -90 }],
];

const VERBS = [
  'Fix',
  'Add',
  'Refactor',
  'Investigate',
  'Document',
  'Remove',
  'Migrate',
  'Test',
  'Design',
  'Review',
  'Speed up',
  'Harden',
  'Simplify',
  'Localise',
  'Measure',
  'Automate',
  'Clean up',
  'Deprecate',
  'Prototype',
  'Audit',
];
const OBJECTS = [
  'login flow',
  'invoice export',
  'search index',
  'sync queue',
  'settings page',
  'push notifications',
  'rate limiter',
  'CSV import',
  'webhook retries',
  'dark mode',
  'onboarding tour',
  'audit log',
  'offline cache',
  'release pipeline',
  'crash reporter',
  'date picker',
  'team switcher',
  'permissions matrix',
  'billing emails',
  'API pagination',
  'sprint board',
  'goal tracker',
  'comment threads',
  'file uploads',
  'keyboard shortcuts',
  'error pages',
  'SSO integration',
  'metrics dashboard',
  'task history',
  'mobile deep links',
  'tag editor',
  'timezone handling',
  'backup restore',
  'feature flags',
  'memory leak',
  'flaky test',
  'slow query',
  'dependency bump',
  'accessibility labels',
  'print stylesheet',
];
const QUALIFIERS = [
  '',
  '',
  '',
  ' on Windows',
  ' for large orgs',
  ' before the release',
  ' (follow-up)',
  ' in Safari',
  ' after the outage',
  ' — part 2',
  ' for Ünicode names',
  ' behind a flag',
  ' 🐛',
  ' in the EU region',
  ' [blocked upstream]',
];
const SENTENCES = [
  'Steps to reproduce are in the linked thread.',
  'Customers on the enterprise plan hit this weekly.',
  'Needs a design review before we start.',
  'The fix should be covered by an end-to-end test.',
  'Über-wichtig: bitte vor Freitag erledigen.',
  'これは日本語の説明です。',
  'Проверить на медленной сети.',
  'Edge case: 100% of the quota used, with a_b and *wildcards*.',
  'See RFC 9457 for the error format.',
  'Pairing with the mobile team on this one. 🤝',
  'Rollback plan: toggle the feature flag off.',
  'مراجعة النص من اليمين إلى اليسار.',
];
const TAGS = [
  'backend',
  'frontend',
  'ux',
  'infra',
  'security',
  'perf',
  'docs',
  'tech-debt',
  'customer',
  'Q4',
  'needs-triage',
  'good-first-issue',
  'café',
  '紧急',
  'release-blocker',
];
const STATUSES = ['not_started', 'in_progress', 'blocked', 'completed'] as const;
const PRIORITIES = ['low', 'medium', 'high', 'urgent', null] as const;
const REVIEWS = ['pending', 'accepted', 'rejected', null] as const;
const ORIGINS = ['app', 'api', 'sdk', 'mcp', null] as const;
// Weighted draws for tasks past the first few (which walk every value in turn).
const STATUS_DRAW = [
  'not_started',
  'not_started',
  'in_progress',
  'blocked',
  'completed',
  'completed',
] as const;
const ORIGIN_DRAW = ['app', 'app', 'app', 'api', 'api', 'sdk', 'mcp', null] as const;

/** Titles that exercise search escaping, case-only differences, length bounds and scripts. */
const SPECIAL_TITLES = [
  'Fix 100% CPU in on_start (urgent*)',
  'Parse a,b (quoted) values',
  'alpha release notes',
  'Alpha release notes',
  'Überprüfen der Größe — 検索 🔍',
  'Ремонт кэша',
  'مهمة: إصلاح الترتيب',
  '😀 Emoji-only title 🎉🎉',
  'T'.repeat(500),
];

// Seeding 100 000 tasks formats half a million dates: days are formatted once
// and times of day by arithmetic (the output is exactly toISOString's).
const dayCache = new Map<number, string>();
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

function day(ms: number): string {
  const n = Math.floor(ms / DAY);
  let text = dayCache.get(n);
  if (text === undefined) {
    text = new Date(n * DAY).toISOString().slice(0, 10);
    dayCache.set(n, text);
  }
  return text;
}

function iso(ms: number): string {
  const rest = ms - Math.floor(ms / DAY) * DAY;
  const h = Math.floor(rest / 3_600_000);
  const m = Math.floor((rest % 3_600_000) / 60_000);
  const s = Math.floor((rest % 60_000) / 1000);
  return `${day(ms)}T${TWO[h]}:${TWO[m]}:${TWO[s]}.${THREE[rest % 1000]}Z`;
}

export interface SeedOptions {
  seed: number;
  taskCount: number;
}

export function seedOrganization(store: EmulatorStore, options: SeedOptions): void {
  const rand = new DeterministicRandom(options.seed);
  const anchor = Math.floor(store.clock.now() / DAY) * DAY; // 00:00 UTC today
  const today = day(anchor);
  const orgCreated = anchor - 500 * DAY;

  const orgId = `org_${rand.token(10)}`;
  store.org = { org_id: orgId, name: 'Northwind Labs', slug: 'northwind-labs', created_at: iso(orgCreated) };

  // Members
  const byUsername = new Map<string, OrganizationMemberRecord>();
  for (const [index, m] of MEMBERS.entries()) {
    const invited = orgCreated + index * 3 * DAY;
    const serviceAccount = m.kind === 'service_account';
    const record: OrganizationMemberRecord = {
      user_id: rand.uuid(),
      org_id: orgId,
      email: serviceAccount
        ? `${m.username.slice(3)}@service.${orgId}.svc.invalid`
        : `${m.username}@northwind.example`,
      username: m.username,
      designation: m.designation,
      designation_id:
        m.designation === null ? null : `des_${m.designation.toLowerCase().replace(/[^a-z]+/g, '-')}`,
      role: m.role,
      invited_by: index === 0 ? null : MAIN_USERNAME,
      updated_by: null,
      delete_reason: m.inactive ? 'left the company' : null,
      deleted_by: m.inactive ? MAIN_USERNAME : null,
      is_active: !m.inactive,
      invited_at: iso(invited),
      accepted_at: serviceAccount ? null : iso(invited + DAY),
      updated_at: iso(invited + DAY),
      deleted_at: m.inactive ? iso(anchor - 30 * DAY) : null,
      last_active_at: m.inactive ? iso(anchor - 31 * DAY) : iso(anchor - rand.int(1, 72) * 3_600_000),
      kind: m.kind ?? 'user',
      mfa_enrolled: serviceAccount ? null : rand.chance(0.6),
    };
    store.members.set(record.user_id, record);
    byUsername.set(m.username, record);
  }
  const userId = (username: string) => byUsername.get(username)?.user_id ?? '';
  store.mainUserId = userId(MAIN_USERNAME);
  store.peerUserId = userId(PEER_USERNAME);
  const people = MEMBERS.filter((m) => !m.inactive && m.kind !== 'service_account').map((m) => m.username);

  // Teams
  const teams: TeamRecord[] = [];
  for (const [index, t] of TEAMS.entries()) {
    const created = orgCreated + (10 + index * 7) * DAY;
    const team: TeamRecord = {
      team_id: `team_${rand.token(10)}`,
      org_id: orgId,
      name: t.name,
      description: t.description,
      created_by: t.owner,
      updated_by: t.owner,
      created_at: iso(created),
      updated_at: iso(created),
      is_active: true,
    };
    teams.push(team);
    store.teams.set(team.team_id, team);
    const members: TeamMemberRecord[] = [t.owner, ...t.members].map((username, position) => ({
      team_id: team.team_id,
      user_id: userId(username),
      team_role: position === 0 ? 'owner' : 'member',
      username,
      added_by: t.owner,
      created_at: iso(created + position * 60_000),
      updated_at: iso(created + position * 60_000),
    }));
    store.teamMembers.set(team.team_id, members);
  }

  // Projects
  const projects: ProjectRecord[] = [];
  for (const [index, p] of PROJECTS.entries()) {
    const created = orgCreated + (20 + index * 11) * DAY;
    const teamId = p.team === null ? null : (teams[p.team]?.team_id ?? null);
    const project: ProjectRecord = {
      project_id: `prj_${rand.token(10)}`,
      org_id: orgId,
      name: p.name,
      description: p.description,
      status: p.status,
      team_id: teamId,
      created_at: iso(created),
      updated_at: iso(p.status === 'archived' ? anchor - 60 * DAY : created),
    };
    projects.push(project);
    store.projects.set(project.project_id, project);
  }

  // Sections: project, team and user scopes
  const sectionsByScope = new Map<string, SectionRecord[]>();
  const addSection = (
    scopeType: SectionRecord['scope_type'],
    scopeId: string,
    names: string[],
    by: string,
  ) => {
    const list: SectionRecord[] = [];
    for (const [index, name] of names.entries()) {
      const created = orgCreated + (40 + index) * DAY;
      const section: SectionRecord = {
        section_id: `sec_${rand.token(10)}`,
        org_id: orgId,
        name,
        scope_type: scopeType,
        scope_id: scopeId,
        position: (index + 1) * 1024,
        created_by: by,
        updated_by: by,
        created_at: iso(created),
        updated_at: iso(created),
      };
      list.push(section);
      store.records(SECTIONS).set(section.section_id, section);
    }
    sectionsByScope.set(`${scopeType}:${scopeId}`, list);
  };
  for (const project of projects)
    addSection('project', project.project_id, ['Backlog', 'In progress', 'Review', 'Done ✅'], MAIN_USERNAME);
  for (const team of teams)
    addSection('team', team.team_id, ['Triage', 'This week'], team.created_by ?? MAIN_USERNAME);
  addSection('user', MAIN_USERNAME, ['Today', 'Later'], MAIN_USERNAME);
  addSection('user', PEER_USERNAME, ['My focus', 'Someday / maybe'], PEER_USERNAME);

  // Sprints: per team four completed, the current one (today inside it) and an upcoming one
  const weekday = (new Date(anchor).getUTCDay() + 6) % 7; // Monday 0
  const monday = anchor - weekday * DAY;
  const currentStart = monday - 7 * DAY;
  const sprintsByTeam = new Map<string, SprintRecord[]>();
  for (const [teamIndex, team] of teams.entries()) {
    const list: SprintRecord[] = [];
    const cyrillic = team.name.startsWith('Équipe');
    for (let k = -4; k <= 1; k++) {
      let start = currentStart + k * 14 * DAY;
      let end = start + 13 * DAY;
      // One team's oldest sprint ran ten days: a custom length.
      if (teamIndex === 2 && k === -4) end = start + 9 * DAY;
      if (teamIndex === 2 && k === -4) start = end - 9 * DAY;
      const number = 40 + teamIndex * 10 + k + 5;
      const completed = k < 0;
      const created = start - 3 * DAY;
      const sprint: SprintRecord = {
        sprint_id: `spr_${rand.token(10)}`,
        org_id: orgId,
        team_id: team.team_id,
        name: cyrillic ? `Спринт ${number}` : `Sprint ${number}`,
        description: k === 0 ? 'The sprint we are in.' : null,
        goal: k === 0 ? 'Close the release blockers' : null,
        start_date: day(start),
        end_date: day(end),
        status: completed ? 'completed' : 'active',
        completed_at: completed ? iso(end + DAY + 10 * 3_600_000) : null,
        completed_by: completed ? (team.created_by ?? MAIN_USERNAME) : null,
        created_by: team.created_by,
        updated_by: team.created_by,
        created_at: iso(created),
        updated_at: iso(completed ? end + DAY + 10 * 3_600_000 : created),
        is_active: true,
      };
      list.push(sprint);
      store.records(SPRINTS).set(sprint.sprint_id, sprint);
    }
    sprintsByTeam.set(team.team_id, list);
  }

  // Goals: two to four per project, one soft-deleted
  const goalsByProject = new Map<string, GoalRecord[]>();
  for (const [projectIndex, project] of projects.entries()) {
    const count = 2 + (projectIndex % 3);
    const list: GoalRecord[] = [];
    for (let g = 0; g < count; g++) {
      const created = Date.parse(project.created_at) + (g + 1) * DAY;
      const deleted = projectIndex === 0 && g === count - 1;
      const closed = projectIndex === 1 && g === 0;
      const goal: GoalRecord = {
        goal_id: `gol_${rand.token(10)}`,
        org_id: orgId,
        project_id: project.project_id,
        name: GOAL_NAMES[(projectIndex + g) % GOAL_NAMES.length] ?? 'Goal',
        target_date: g === 1 ? null : day(anchor + (g * 30 - 10) * DAY),
        description: g === 0 ? 'What success looks like, in one paragraph.' : null,
        position: (g + 1) * 1024,
        status: closed ? 'closed' : 'open',
        closed_at: closed ? iso(anchor - 5 * DAY) : null,
        closed_by: closed ? MAIN_USERNAME : null,
        converted_from_task_id: null,
        created_by: MAIN_USERNAME,
        updated_by: MAIN_USERNAME,
        created_at: iso(created),
        updated_at: iso(created),
        deleted_at: deleted ? iso(anchor - 2 * DAY) : null,
      };
      store.records(GOALS).set(goal.goal_id, goal);
      if (!deleted) list.push(goal);
    }
    goalsByProject.set(project.project_id, list);
  }

  // Milestones draw from their own generator, so adding them moved no other seeded id or value.
  const milestoneRand = new DeterministicRandom((options.seed ^ 0x6d11e5) >>> 0);
  const milestonesByProject = new Map<string, MilestoneRecord[]>();
  for (const [projectIndex, project] of projects.entries()) {
    const list: MilestoneRecord[] = [];
    for (const [index, m] of (SEEDED_MILESTONES[projectIndex] ?? []).entries()) {
      const created = iso(Date.parse(project.created_at) + (index + 2) * DAY);
      const milestone: MilestoneRecord = {
        milestone_id: `mst_${milestoneRand.token(10)}`,
        org_id: orgId,
        project_id: project.project_id,
        name: m.name,
        description: index === 0 ? 'What has to be true to call it done.' : null,
        due_date: m.dueInDays === null ? null : day(anchor + m.dueInDays * DAY),
        status: m.status,
        position: (index + 1) * 1024,
        created_by: MAIN_USERNAME,
        updated_by: MAIN_USERNAME,
        created_at: created,
        updated_at: created,
      };
      store.records(MILESTONES).set(milestone.milestone_id, milestone);
      list.push(milestone);
    }
    milestonesByProject.set(project.project_id, list);
  }

  seedTasks(store, rand, {
    milestoneRand,
    milestonesByProject,
    count: options.taskCount,
    anchor,
    today,
    people,
    projects,
    teams,
    sectionsByScope,
    sprintsByTeam,
    goalsByProject,
  });
}

interface TaskSeedContext {
  /** Files tasks under milestones without drawing from the tasks' generator. */
  milestoneRand: DeterministicRandom;
  milestonesByProject: Map<string, MilestoneRecord[]>;
  count: number;
  anchor: number;
  today: string;
  people: string[];
  projects: ProjectRecord[];
  teams: TeamRecord[];
  sectionsByScope: Map<string, SectionRecord[]>;
  sprintsByTeam: Map<string, SprintRecord[]>;
  goalsByProject: Map<string, GoalRecord[]>;
}

function seedTasks(store: EmulatorStore, rand: DeterministicRandom, ctx: TaskSeedContext): void {
  const orgId = store.org.org_id;
  const lastTaskOfProject = new Map<string | null, string>();
  const nextPosition = new Map<string, number>();
  const assignees = [...ctx.people, MAIN_USERNAME, MAIN_USERNAME];
  const longDescription = buildLongDescription(rand);
  // Lookups per project and team, made once rather than per task.
  const projectSections = new Map(
    ctx.projects.map((p) => [p.project_id, ctx.sectionsByScope.get(`project:${p.project_id}`) ?? []]),
  );
  const teamSections = new Map(
    ctx.teams.map((t) => [t.team_id, ctx.sectionsByScope.get(`team:${t.team_id}`) ?? []]),
  );
  const userSections = [
    ctx.sectionsByScope.get(`user:${MAIN_USERNAME}`) ?? [],
    ctx.sectionsByScope.get(`user:${PEER_USERNAME}`) ?? [],
  ];
  // Tasks go into the last completed sprints, the current one and the upcoming one.
  const recentSprints = new Map([...ctx.sprintsByTeam].map(([teamId, list]) => [teamId, list.slice(2, 5)]));

  for (let i = 0; i < ctx.count; i++) {
    const covering = i < 60; // the first tasks walk every enum value so that a small seed has them all
    const project = rand.chance(0.1) ? null : rand.pick(ctx.projects);
    let teamId: string | null;
    if (project?.team_id && rand.chance(0.8)) teamId = project.team_id;
    else teamId = rand.chance(0.5) ? rand.pick(ctx.teams).team_id : null;

    let sectionId: string | null = null;
    const placement = rand.float();
    if (placement < 0.6 && project)
      sectionId = rand.pick(projectSections.get(project.project_id) ?? []).section_id;
    else if (placement < 0.75 && teamId) sectionId = rand.pick(teamSections.get(teamId) ?? []).section_id;
    else if (placement < 0.8) sectionId = rand.pick(userSections[rand.chance(0.5) ? 0 : 1] ?? []).section_id;

    const sprints = teamId ? recentSprints.get(teamId) : undefined;
    const sprintId = sprints && rand.chance(0.5) ? rand.pick(sprints).sprint_id : null;
    const goals = project ? (ctx.goalsByProject.get(project.project_id) ?? []) : [];
    const goalId = goals.length > 0 && rand.chance(0.3) ? rand.pick(goals).goal_id : null;
    const milestones = project ? (ctx.milestonesByProject.get(project.project_id) ?? []) : [];
    const milestoneId =
      milestones.length > 0 && ctx.milestoneRand.chance(0.25)
        ? ctx.milestoneRand.pick(milestones).milestone_id
        : null;
    const parent = rand.chance(0.06) ? (lastTaskOfProject.get(project?.project_id ?? null) ?? null) : null;

    const special = i % 997 === 5 ? SPECIAL_TITLES[Math.floor(i / 997) % SPECIAL_TITLES.length] : undefined;
    const title =
      i < SPECIAL_TITLES.length
        ? (SPECIAL_TITLES[i] as string)
        : (special ?? `${rand.pick(VERBS)} ${rand.pick(OBJECTS)}${rand.pick(QUALIFIERS)}`);
    let description: string | null = null;
    if (i === SPECIAL_TITLES.length) description = longDescription;
    else if (rand.chance(0.7)) {
      description = rand.pick(SENTENCES);
      for (let n = rand.int(1, 3); n > 1; n--) description += ' ' + rand.pick(SENTENCES);
    }

    const status = covering ? STATUSES[i % 4]! : rand.pick(STATUS_DRAW);
    const priority = covering ? PRIORITIES[i % 5]! : rand.pick(PRIORITIES);
    const review = covering ? REVIEWS[i % 4]! : rand.chance(0.6) ? null : rand.pick(REVIEWS);
    const createdVia = covering ? ORIGINS[i % 5]! : rand.pick(ORIGIN_DRAW);
    const taskType = covering ? (i % 3 === 0 ? 'bug' : 'task') : rand.chance(0.2) ? 'bug' : 'task';
    const assignee = covering && i % 6 === 0 ? null : rand.chance(0.12) ? null : rand.pick(assignees);
    const tagCount = rand.int(0, 3);
    const tags = tagCount === 0 ? [] : rand.sample(TAGS, tagCount);

    const dueDate = rand.chance(0.4) ? null : day(ctx.anchor + rand.int(-45, 60) * DAY);
    const startDate = rand.chance(0.5)
      ? null
      : day((dueDate ? Date.parse(dueDate) : ctx.anchor) - rand.int(0, 20) * DAY);
    const createdMs = ctx.anchor - rand.int(1, 400) * DAY + rand.int(0, DAY - 1);
    const updatedMs = rand.chance(0.5) ? createdMs : createdMs + rand.int(0, ctx.anchor - createdMs);
    const createdBy = rand.pick(ctx.people);
    const createdAt = iso(createdMs);
    const updatedAt = updatedMs === createdMs ? createdAt : iso(updatedMs);
    const positionKey = sectionId ?? project?.project_id ?? '';
    const position = (nextPosition.get(positionKey) ?? 0) + 1024;
    nextPosition.set(positionKey, position);

    const task: TaskRecord = {
      task_id: `tsk_${rand.token(12)}`,
      org_id: orgId,
      project_id: project?.project_id ?? null,
      team_id: teamId,
      section_id: sectionId,
      sprint_id: sprintId,
      goal_id: goalId,
      milestone_id: milestoneId,
      parent_task_id: parent,
      title,
      description,
      status,
      priority,
      assignee,
      tags,
      due_date: dueDate,
      start_date: startDate,
      task_type: taskType,
      created_via: createdVia,
      review,
      position,
      created_by: createdBy,
      updated_by: updatedMs === createdMs ? createdBy : rand.pick(ctx.people),
      created_at: createdAt,
      updated_at: updatedAt,
      completed_at: status === 'completed' ? updatedAt : null,
    };
    const entry = new TaskEntry(task);
    void entry.bytes; // serialized now, so that the first walk of the list does no serializing
    store.tasks.set(task.task_id, entry);
    store.historyProject.set(task.task_id, task.project_id);
    lastTaskOfProject.set(task.project_id, task.task_id);

    // A few thousand tasks carry a real change in their history; the rest get their `created` entry on demand.
    if (i < 2000 && updatedMs !== createdMs && status !== 'not_started') {
      const initial: TaskRecord = {
        ...task,
        status: 'not_started',
        completed_at: null,
        updated_at: task.created_at,
      };
      store.history.set(task.task_id, [
        creationHistory(store.sequentialId('hst'), initial, createdBy),
        {
          history_id: store.sequentialId('hst'),
          task_id: task.task_id,
          action: 'updated',
          created_by: task.updated_by ?? createdBy,
          created_at: task.updated_at,
          title: task.title,
          metadata: [{ field: 'status', new: status, old: 'not_started' }],
          hash_id: null,
          updated_at: task.updated_at,
        },
      ]);
    } else {
      store.pendingCreationHistory.add(task.task_id);
    }

    if (i < 40 && i % 3 !== 2) seedComments(store, rand, task, ctx.people);
  }
  store.touch();
}

function seedComments(
  store: EmulatorStore,
  rand: DeterministicRandom,
  task: TaskRecord,
  people: string[],
): void {
  const list: CommentRecord[] = [];
  const count = rand.int(1, 3);
  let at = Date.parse(task.created_at);
  for (let c = 0; c < count; c++) {
    at += rand.int(1, 48) * 3_600_000;
    const author = rand.pick(people);
    const mention = rand.chance(0.4) ? rand.pick([MAIN_USERNAME, PEER_USERNAME]) : null;
    const content = mention
      ? `@${mention} could you take a look? ${rand.pick(SENTENCES)}`
      : rand.pick(SENTENCES);
    const comment = makeSeedComment(store, task, null, author, content, at);
    list.push(comment);
    if (rand.chance(0.5)) {
      at += rand.int(1, 10) * 3_600_000;
      list.push(
        makeSeedComment(store, task, comment.comment_id, rand.pick(people), 'Agreed — on it. 👍', at),
      );
    }
  }
  for (const comment of list) store.comments.set(comment.comment_id, comment);
  store.commentsByTask.set(task.task_id, list);
}

function makeSeedComment(
  store: EmulatorStore,
  task: TaskRecord,
  parent: string | null,
  author: string,
  content: string,
  at: number,
): CommentRecord {
  const mentioned = [...content.matchAll(/@([a-z0-9._-]+)/g)]
    .map((m) => store.memberByUsername(m[1] ?? ''))
    .filter((m) => m !== undefined);
  return {
    comment_id: store.sequentialId('cmt'),
    task_id: task.task_id,
    org_id: task.org_id,
    parent_comment_id: parent,
    content,
    created_by: author,
    created_at: iso(at),
    updated_at: iso(at),
    mentions: mentioned.map((m) => ({ user_id: m.user_id, username: m.username, email: m.email })),
  };
}

/** A description of exactly 100 000 characters (the contract's bound), mixing scripts (no astral ones, so characters are code units). */
function buildLongDescription(rand: DeterministicRandom): string {
  const plain = SENTENCES.filter((s) => !/[\uD800-\uDFFF]/.test(s));
  let text = '';
  while (text.length < 100_000) text += rand.pick(plain) + ' ';
  return text.slice(0, 100_000);
}
