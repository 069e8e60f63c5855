// The app's one scope list, derived from its writable kinds: a sign-in asks for
// what every kind writes and the pull reads, and a narrower grant names the
// kinds it leaves read-only.
import { describe, expect, test } from 'vitest';
import { scopeCovers } from '../../auth/scopes';
import { APP_SCOPES, kindsNeeding, kindsNotGranted } from './app-scopes';
import { PUSH_KINDS } from './registry';

describe("the app's scopes", () => {
  test('cover every writable kind and every read of the pull, each asked once', () => {
    for (const kind of PUSH_KINDS) expect(scopeCovers(APP_SCOPES, kind.writeScope)).toBe(true);
    for (const read of ['tasks:read', 'projects:read', 'teams:read', 'members:read'])
      expect(scopeCovers(APP_SCOPES, read)).toBe(true);
    expect([...APP_SCOPES].sort()).toEqual([
      'members:read',
      'projects:read',
      'projects:write',
      'tasks:read',
      'tasks:write',
      'teams:read',
      'teams:write',
    ]);
  });

  test('a grant without teams:write leaves sprints read-only, and one without projects:write goals and milestones', () => {
    const all = [...APP_SCOPES];
    expect(kindsNotGranted(all)).toEqual(new Map());
    expect(kindsNotGranted(all.filter((s) => s !== 'teams:write'))).toEqual(
      new Map([['sprint', 'teams:write']]),
    );
    expect(kindsNotGranted(['tasks:write', 'teams:write', 'members:read'])).toEqual(
      new Map([
        ['goal', 'projects:write'],
        ['milestone', 'projects:write'],
      ]),
    );
    expect(kindsNotGranted(['admin'])).toEqual(new Map());
  });

  test('a pasted token, whose scopes are unknown, is taken as granting all until refused', () => {
    expect(kindsNotGranted(null)).toEqual(new Map());
    expect(kindsNeeding('projects:write')).toEqual(['goal', 'milestone']);
  });
});
