// The contract's scope implications, table-driven (service-api.md, "Scopes", rule 1).
import { describe, expect, test } from 'vitest';
import { scopeCovers } from './scopes';

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
});
