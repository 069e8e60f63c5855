// Every synced resource, once, in dependency order: what a later one needs
// (the organization, the teams whose sprints are listed) comes first, and a
// full pull starts each as soon as what it needs is done. A collection kind's
// pull is derived from its descriptor (resources/kind-resource.ts) unless it
// is listed its own way; any other resource is a module in resources/ and a
// line here.
import { COLLECTION_KINDS } from '../../protocol/writable-kinds';
import type { PulledCollection } from '../events/sync-events';
import type { PulledResource } from './pull-context';
import { goalsResource } from './resources/goals';
import { meResource } from './resources/me';
import { organizationMembersResource } from './resources/organization-members';
import { organizationsResource } from './resources/organizations';
import { kindResource } from './resources/kind-resource';
import { projectsResource } from './resources/projects';
import { tasksResource } from './resources/tasks';
import { teamsResource } from './resources/teams';

function registry(resources: readonly PulledResource[]): ReadonlyMap<PulledCollection, PulledResource> {
  const map = new Map<PulledCollection, PulledResource>();
  for (const resource of resources) {
    if (map.has(resource.collection)) throw new Error(`${resource.collection} is registered twice`);
    for (const need of resource.needs) {
      if (!map.has(need))
        throw new Error(`${resource.collection} needs ${need}, which must be registered before it`);
    }
    map.set(resource.collection, resource);
  }
  return map;
}

/** The collection kinds pulled their own way (goals come grouped by project). */
const OWN_RESOURCES: ReadonlyMap<string, PulledResource> = new Map(
  [goalsResource].map((resource) => [resource.collection, resource]),
);

/** In dependency order (a Map keeps insertion order). */
export const PULLED_RESOURCES = registry([
  organizationsResource,
  meResource,
  projectsResource,
  teamsResource,
  organizationMembersResource,
  ...COLLECTION_KINDS.map((kind) => OWN_RESOURCES.get(kind.collection) ?? kindResource(kind)),
  tasksResource,
]);
