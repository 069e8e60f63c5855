// The contract's scope implications, table-driven (service-api.md, "Scopes", rule 1).
import { describe, expect, test } from 'vitest';
import { scopeCovers, scopesMissing, withoutImplied } from './scopes';

describe('what a grant covers', () => {
  test.each([
    [['tasks:write'], 'tasks:write', true],
    [['tasks:write'], 'tasks:read', true],
    [['tasks:read'], 'tasks:write', false],
    [['teams:read'], 'teams:write', false],
    [['projects:write'], 'teams:write', false],
    [['admin'], 'teams:write', true],
    [['admin'], 'members:read', true],
    [['org:read'], 'members:read', true],
    [['org:write'], 'members:read', true],
    [['org:write'], 'org:read', true],
    [['members:read'], 'org:read', false],
    [[], 'tasks:read', false],
  ])('%j covers %s: %s', (granted, needed, covers) => {
    expect(scopeCovers(granted, needed)).toBe(covers);
  });

  test('the scopes a grant lacks, in the order asked', () => {
    expect(
      scopesMissing(['tasks:write', 'teams:read'], ['tasks:write', 'teams:write', 'projects:write']),
    ).toEqual(['teams:write', 'projects:write']);
  });

  test('what a sign-in asks for leaves out what another of its scopes implies', () => {
    expect(
      withoutImplied([
        'tasks:write',
        'tasks:read',
        'teams:read',
        'teams:write',
        'members:read',
        'tasks:write',
      ]),
    ).toEqual(['tasks:write', 'teams:write', 'members:read']);
    expect(withoutImplied(['org:read', 'members:read'])).toEqual(['org:read']);
  });
});
