// What a sync event carries when a step failed, as the reducers and the
// screens' tests feed it: the service out of reach.
import type { SyncErrorInfo } from '../sync-events';

/** The task list's read found no server (connection refused). */
export const networkError: SyncErrorInfo = {
  kind: 'network',
  type: null,
  status: null,
  operation: 'tasks.list',
  message: 'ECONNREFUSED',
};
