// Feeds the sync log from what an account's sync already reports: every HTTP
// attempt of its API client (an observer, nothing changes in the request path)
// and the engine's events. Titles and other task content never enter the log.
import type { ApiClient } from '../api/api-client';
import type { ApiExchange } from '../api/api-exchange';
import type { SyncErrorInfo, SyncEvent, SyncEventListener } from '../events/sync-events';
import type { SyncLogEntryInput } from './sync-log';

/** Where entries go (SyncLog has it). */
export interface SyncLogSink {
  add(entry: SyncLogEntryInput): void;
  noteCollection(collection: string, what: 'checked' | 'changed'): void;
}

export interface SyncActivitySources {
  /** The account's API client: each request attempt becomes an entry. */
  api?: Pick<ApiClient, 'observe'>;
  /** Subscribes to the account's engine events; returns the function that unsubscribes. */
  subscribe?: (listener: SyncEventListener) => () => void;
}

/** Starts recording; returns the function that stops. */
export function recordSyncActivity(log: SyncLogSink, sources: SyncActivitySources): () => void {
  const stops: (() => void)[] = [];
  if (sources.api) stops.push(sources.api.observe((exchange) => log.add(exchangeEntry(exchange))));
  if (sources.subscribe) stops.push(sources.subscribe((event) => recordSyncEvent(log, event)));
  return () => {
    for (const stop of stops) stop();
  };
}

/** One engine event: its log line, if it is worth one, and when its collections were checked or changed. */
export function recordSyncEvent(log: SyncLogSink, event: SyncEvent): void {
  const entry = eventEntry(event);
  if (entry) log.add(entry);
  if (event.type === 'progress') log.noteCollection(event.collection, 'checked');
  else if (event.type === 'changes') {
    for (const collection of new Set(event.changes.map((c) => c.collection))) {
      log.noteCollection(collection, 'changed');
    }
  }
}

export function exchangeEntry(exchange: ApiExchange): SyncLogEntryInput {
  const common = {
    method: exchange.method,
    path: exchange.path,
    status: exchange.status,
    durationMs: exchange.durationMs,
    requestId: exchange.requestId,
    operation: exchange.operation,
    detail: { attempt: exchange.attempt, ...(exchange.errorCode ? { error_code: exchange.errorCode } : {}) },
  };
  const answered =
    exchange.status === null ? `no answer (${exchange.errorCode ?? 'network error'})` : `${exchange.status}`;
  const line = `${exchange.method} ${exchange.path} → ${answered} in ${Math.round(exchange.durationMs)} ms`;
  if (exchange.willRetry) {
    return {
      ...common,
      level: 'warn',
      kind: 'retry',
      message: `${line}; retrying (attempt ${exchange.attempt})`,
    };
  }
  const level =
    exchange.status === null || exchange.status >= 500 ? 'error' : exchange.status >= 400 ? 'warn' : 'info';
  return { ...common, level, kind: 'request', message: line };
}

function errorFacts(error: SyncErrorInfo): Record<string, unknown> {
  return {
    error_kind: error.kind,
    problem_type: error.type,
    status: error.status,
    operation: error.operation,
  };
}

/** An entry's part that says which failure it was: its status and operation, and the facts of it after `detail`. */
function failureOf(
  error: SyncErrorInfo,
  detail: Record<string, unknown>,
): Pick<SyncLogEntryInput, 'status' | 'operation' | 'detail'> {
  return { status: error.status, operation: error.operation, detail: { ...detail, ...errorFacts(error) } };
}

export function eventEntry(event: SyncEvent): SyncLogEntryInput | null {
  switch (event.type) {
    case 'sync-started':
      return {
        level: 'debug',
        kind: 'sync',
        message: `sync started (${event.tier}, ${event.reason})`,
        detail: { tier: event.tier, reason: event.reason },
      };
    case 'sync-finished': {
      const s = event.summary;
      return {
        level: 'info',
        kind: 'sync',
        message: `sync finished (${event.reason}): ${s.pulled} pulled, ${s.not_modified} unchanged pages, ${s.pushed} pushed, ${s.changes} changes, ${s.conflicts} conflicts open, ${s.failed} failed, ${s.requests} requests`,
        detail: { reason: event.reason, ...s },
      };
    }
    case 'sync-failed':
      return {
        level: 'error',
        kind: 'error',
        message: `sync failed (${event.reason}): ${event.error.message}`,
        ...failureOf(event.error, { reason: event.reason }),
      };
    case 'online':
      return { level: 'info', kind: 'connectivity', message: 'online' };
    case 'offline':
      return {
        level: 'warn',
        kind: 'connectivity',
        message: `offline: ${event.error.message}`,
        detail: errorFacts(event.error),
      };
    case 'signed-out':
      return {
        level: 'error',
        kind: 'auth',
        message: `signed out (${event.reason}): sign in again to resume syncing`,
        detail: { reason: event.reason },
      };
    case 'changes': {
      const counts: Record<string, number> = {};
      for (const c of event.changes) {
        const key = `${c.collection}.${c.kind}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return {
        level: 'info',
        kind: 'changes',
        message: `${event.changes.length} remote changes applied, ${event.notifications.length} notifications`,
        detail: {
          counts,
          task_ids: event.changes
            .filter((c) => c.collection === 'tasks')
            .map((c) => c.id)
            .slice(0, 50),
        },
      };
    }
    case 'pushed':
      return {
        level: 'info',
        kind: 'push',
        message: `${event.kind} of ${event.entityType} ${event.entityId} accepted${event.serverId !== event.entityId ? ` as ${event.serverId}` : ''}`,
        detail: {
          op_id: event.opId,
          entity_id: event.entityId,
          server_id: event.serverId,
          op_kind: event.kind,
        },
      };
    case 'merged': {
      const parts = [
        event.rebased.length > 0 ? `mine re-sent: ${event.rebased.join(', ')}` : null,
        event.taken.length > 0 ? `theirs kept: ${event.taken.join(', ')}` : null,
        event.settled.length > 0 ? `same on both sides: ${event.settled.join(', ')}` : null,
      ].filter((part) => part !== null);
      return {
        level: 'info',
        kind: 'merge',
        message: `${event.entityType} ${event.entityId} changed on the server since the edit (412): merged cleanly${parts.length > 0 ? `; ${parts.join('; ')}` : ''}`,
        detail: {
          op_id: event.opId,
          entity_id: event.entityId,
          rebased: event.rebased,
          taken: event.taken,
          settled: event.settled,
        },
      };
    }
    case 'id-remapped':
      return {
        level: 'info',
        kind: 'merge',
        message: `temporary id ${event.from} replaced by ${event.to}`,
        detail: { entity_type: event.entityType, from: event.from, to: event.to },
      };
    case 'conflict':
      return {
        level: 'warn',
        kind: 'conflict',
        message:
          event.conflict === 'deleted-remotely'
            ? `${event.entityType} ${event.entityId} was deleted remotely while edited here: the edit waits for a choice`
            : `${event.entityType} ${event.entityId}: ${event.fields.join(', ')} changed on both sides: the edit waits for a choice`,
        detail: {
          op_id: event.opId,
          entity_id: event.entityId,
          conflict: event.conflict,
          fields: event.fields,
        },
      };
    case 'left-out':
      return {
        level: 'warn',
        kind: 'push',
        message: `${event.entityType} ${event.entityId} is re-created without ${event.fields.join(', ')}: the server refused ${event.fields.length === 1 ? 'it' : 'them'} (${event.reason})`,
        detail: { op_id: event.opId, entity_id: event.entityId, fields: event.fields },
      };
    case 'push-failed':
      return {
        level: 'error',
        kind: 'push',
        message: `${event.entityType} ${event.entityId}: the server refused the edit: ${event.error.message}`,
        ...failureOf(event.error, { op_id: event.opId, entity_id: event.entityId }),
      };
    case 'resource-skipped':
      return {
        level: 'warn',
        kind: 'sync',
        message: `${event.collection} of ${event.scope} skipped until the next pull: ${event.error.message}`,
        ...failureOf(event.error, { collection: event.collection, scope: event.scope }),
      };
    case 'item-skipped':
      return {
        level: 'warn',
        kind: 'sync',
        message: `${event.collection}${event.scope === '' ? '' : ` of ${event.scope}`}: ${event.id === null ? 'an item without a readable id' : event.id} left out until it can be read (field ${event.field}: ${event.reason}); its previous copy is kept`,
        detail: { collection: event.collection, scope: event.scope, id: event.id, field: event.field },
      };
    case 'read-only':
      return {
        level: 'warn',
        kind: 'auth',
        message: `writes refused (${event.reason}) for ${event.scope}: edits wait`,
        detail: { op_id: event.opId, scope: event.scope, reason: event.reason },
      };
    case 'progress':
    case 'upload-progress':
    case 'poll-scheduled':
    case 'blocked':
      // Too frequent to be worth a line: the requests and the summary say it (and `read-only` why writes wait).
      return null;
    case 'rate-limited':
      // The 429 answers are request lines already, with their Retry-After wait; a hold of the app's own is not.
      if (event.cause === 'answer') return null;
      return {
        level: 'info',
        kind: 'connectivity',
        message: `requests held ${event.retryAfterSeconds ?? 0} s: this minute's budget is spent`,
        detail: { retry_after_seconds: event.retryAfterSeconds },
      };
    case 'rate-limit-lifted':
      return null;
    case 'connection-lost':
    case 'connection-back':
      // Each failed attempt is a request line already; 'offline' says when the retries gave up.
      return null;
  }
}
