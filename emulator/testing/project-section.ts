// A section made in a project's scope over HTTP, as the emulator's tests of
// sections, ETags and writes start from one.
import { type ApiAnswer, callApi } from '../emulator-http';
import type { SectionRecord } from '../records';
import type { RunningEmulator } from '../start';

/** POST /v1/sections: a section named `name` in the project's scope, and the emulator's answer. */
export function postProjectSection(
  emulator: RunningEmulator,
  projectId: string,
  name: string,
): Promise<ApiAnswer<SectionRecord & { task_count: number }>> {
  return callApi(emulator, 'POST', '/v1/sections', {
    body: { org_id: emulator.orgId, scope_type: 'project', scope_id: projectId, name },
  });
}
