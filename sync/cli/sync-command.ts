// `sync`: the headless command's network subcommand. One full pass (push, pull,
// push) or the poll scheduler until a signal, over the same engine the app
// runs; progress on stderr and one JSON summary as the last stdout line. A
// sync where some collection could not be synced (the others were) exits 1
// and names each in the summary's `failed`.
import { readFile } from 'node:fs/promises';
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import type { Mirror } from '../../db/mirror';
import { openMirror } from '../../db/open-mirror';
import { ApiClient } from '../api/api-client';
import { type CredentialSource, staticCredentials } from '../api/credentials';
import { SignedOutError } from '../api/errors';
import { ServerSettingsRefusedError } from '../accounts/account-errors';
import { checkedApiAddress, resolveServerSettings } from '../accounts/server-settings';
import { AuthUrlRefusedError } from '../auth/auth-errors';
import { SyncEngine } from '../engine/sync-engine';
import { MirrorPullStore } from '../pull/mirror-pull-store';
import { readMeAhead } from '../pull/resources/me';
import type { SyncIdentity } from '../events/sync-parts';
import { errorInfo } from '../events/sync-error-info';
import {
  type CollectionFailure,
  type CollectionFailureLine,
  collectionFailureLine,
  type SyncEvent,
} from '../events/sync-events';
import { EXIT, type ExitCode, UsageError } from './cli-usage';
import type { CliIo } from './cli-io';
import { type StoredCredentials, resolveStoredCredentials } from './login-command';
import { parseOptions, required } from './mirror-commands';
import { pushKindOf } from '../push/kinds/registry';
import { refusedScopeOf } from './write-scopes';

/** The last stdout line of `sync` (its field names are the interface). */
export interface SyncCommandSummary {
  /** Resources received in 200 answers. */
  pulled: number;
  /** Operations the service accepted. */
  pushed: number;
  /** Conflicts open after the pass. */
  conflicts: number;
  /** Tasks in the mirror (shown ones: pending deletes excluded). */
  tasks: number;
  /** HTTP requests sent (retries included). */
  requests: number;
  /** 304 answers. */
  not_modified: number;
  /** Collections the last full pull could not sync (the others were synced): empty when all went well. */
  failed: CollectionFailureLine[];
  /** Changes the service refused to this token (a missing scope, a test token): each waits until a sign-in may write it. */
  blocked: BlockedChange[];
}

export interface BlockedChange {
  op_id: string;
  entity_type: string;
  entity_id: string;
  kind: 'create' | 'update' | 'delete';
  /** The service's problem type: `insufficient-scope`, `test-token-read-only`. */
  reason: string;
  /** The scope it needs. */
  scope: string;
}

/** The outbox's blocked changes, each with the scope it waits for. */
function blockedChanges(mirror: Mirror): BlockedChange[] {
  return mirror.outbox.list(['blocked']).map((op) => {
    const problem = op.lastProblem as { type?: unknown } | null;
    return {
      op_id: op.opId,
      entity_type: op.entityType,
      entity_id: op.entityId,
      kind: op.kind,
      reason: typeof problem?.type === 'string' ? problem.type : 'blocked',
      scope: refusedScopeOf(op.lastProblem) ?? pushKindOf(op.entityType).writeScope,
    };
  });
}

/** "sections", "sprints of team T1": how stderr names a failed unit. */
function unitName(failure: CollectionFailure): string {
  if (failure.scope === '') return failure.collection;
  return failure.collection === 'sprints'
    ? `sprints of team ${failure.scope}`
    : `${failure.collection} (${failure.scope})`;
}

/**
 * The API address for a pasted token: the app's rules for where a token may
 * go (https; plain http only to a loopback address literal).
 */
function apiAddressOf(raw: string): string {
  if (URL.canParse(raw) && !/^https?:$/.test(new URL(raw).protocol)) {
    throw new UsageError(`sync: --base-url must be an http or https address, not '${raw}'`);
  }
  try {
    return checkedApiAddress(raw);
  } catch (error) {
    if (error instanceof ServerSettingsRefusedError)
      throw new UsageError(`sync: --base-url '${raw}': ${error.reason}`);
    throw error;
  }
}

/**
 * The API address for the sign-in `login` kept: its own server, or one given
 * with --base-url that the same rules allow the app (on the sign-in server's
 * origin or a pair this build names, https or a loopback literal). Anything
 * else would hand the stored sign-in to a server it was never meant for.
 */
function storedApiAddressOf(stored: StoredCredentials, raw: string | undefined): string {
  if (raw === undefined) return stored.baseUrl;
  try {
    return resolveServerSettings({ base_url: raw, auth_url: stored.authUrl, client_id: stored.clientId })
      .base_url;
  } catch (error) {
    if (error instanceof ServerSettingsRefusedError || error instanceof AuthUrlRefusedError) {
      throw new UsageError(
        `sync: --base-url '${raw}' is refused for the sign-in kept by login (${stored.authUrl}): ${error.message}`,
      );
    }
    throw error;
  }
}

/** `--time-budget SECONDS`: how long one sync may restart refused lists and retry failed ones. */
function timeBudgetOf(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new UsageError(`sync: --time-budget takes a number of seconds (e.g. 300), not '${raw}'`);
  }
  return seconds * 1000;
}

/** An upload's progress is told on stderr at each tenth of its body, not ten times a second. */
const UPLOAD_STEPS = 10;

/** Tells the person on stderr what the engine is doing, one line per step. */
function progressPrinter(io: CliIo, file: string): (event: SyncEvent) => void {
  /** Each upload's last tenth told: a retry starts again from 0 and is told again. */
  const uploadStep = new Map<string, number>();
  return (event) => {
    switch (event.type) {
      case 'upload-progress': {
        const step = Math.floor((event.sentBytes / Math.max(event.totalBytes, 1)) * UPLOAD_STEPS);
        const told = uploadStep.get(event.opId);
        if (told !== undefined && step === told) break;
        uploadStep.set(event.opId, step);
        io.stderr(
          `push: uploading ${event.entityType} ${event.entityId}: ${(step * 100) / UPLOAD_STEPS}% (${event.sentBytes} of ${event.totalBytes} bytes)\n`,
        );
        break;
      }
      case 'sync-started':
        io.stderr(`sync: ${event.tier} pass started (${event.reason})\n`);
        break;
      case 'progress': {
        const scope = event.scope === '' ? '' : ` ${event.scope}`;
        const total = event.estimatedTotal === null ? '' : ` of ~${event.estimatedTotal}`;
        io.stderr(
          `pull ${event.collection}${scope}: ${event.pagesDone} page(s), ${event.itemsDone}${total} item(s), ${event.notModified} unchanged\n`,
        );
        break;
      }
      case 'pushed':
        io.stderr(
          `push: ${event.kind} of ${event.entityId} accepted${event.serverId !== event.entityId ? ` (now ${event.serverId})` : ''}\n`,
        );
        break;
      case 'conflict':
        io.stderr(
          event.conflict === 'deleted-remotely'
            ? `push: ${event.entityId} was deleted on the server; keep it (--take mine re-creates it) or let it go (--take theirs): see conflicts --db ${file}\n`
            : `push: conflict on ${event.entityId} (${event.fields.join(', ')}); see conflicts --db ${file}, then resolve --db ${file} --conflict ID --take mine|theirs\n`,
        );
        break;
      case 'left-out':
        io.stderr(
          `push: ${event.entityId} is re-created without ${event.fields.join(', ')}: the server refused ${event.fields.length === 1 ? 'it' : 'them'} (${event.reason})\n`,
        );
        break;
      case 'push-failed':
        io.stderr(
          `push: ${event.entityId} refused: ${event.error.message}; see outbox --db ${file}, then retry --db ${file} --op ${event.opId} [--set field=value] or drop --db ${file} --op ${event.opId}\n`,
        );
        break;
      case 'resource-skipped':
        io.stderr(
          `pull ${event.collection} ${event.scope}: skipped, its answer could not be read (${event.error.message})\n`,
        );
        break;
      case 'item-skipped':
        io.stderr(
          `pull ${event.collection} ${event.scope}: ${event.id ?? 'an item without a readable id'} left out, it could not be read (${event.field}: ${event.reason})\n`,
        );
        break;
      case 'read-only':
        io.stderr(
          `push: this token may not write (${event.reason}, needs ${event.scope}); edits wait in the outbox: sync again with a token that has ${event.scope}\n`,
        );
        break;
      case 'offline':
        io.stderr(`sync: offline (${event.error.message}); edits stay queued\n`);
        break;
      case 'sync-failed':
        io.stderr(`sync: failed: ${event.error.message}\n`);
        break;
      case 'sync-finished':
        for (const failure of event.summary.failed_collections) {
          io.stderr(
            failure.skippedBecause === null
              ? `sync: ${unitName(failure)} could not be synced: ${failure.error.message}\n`
              : `sync: ${unitName(failure)} skipped: it needs ${failure.skippedBecause}, which could not be synced\n`,
          );
        }
        break;
      default:
        break;
    }
  };
}

/**
 * The token given (--token, --token-file or SVC_TOKEN), or else the sign-in
 * `login` kept beside the database (its refresh token renews the access token).
 */
export async function credentialsOf(
  file: string,
  baseUrlOption: string | undefined,
  token: string | undefined,
): Promise<{ baseUrl: string; credentials: CredentialSource }> {
  if (token !== undefined && token !== '') {
    return {
      baseUrl: apiAddressOf(required('sync', 'base-url', baseUrlOption)),
      credentials: staticCredentials(token),
    };
  }
  const stored = await resolveStoredCredentials(file);
  if (!stored) {
    throw new UsageError(
      `sync: set the SVC_TOKEN environment variable, pass --token-file FILE (- for standard input), or sign in once with: login --db ${file}`,
    );
  }
  return { baseUrl: storedApiAddressOf(stored, baseUrlOption), credentials: stored.credentials };
}

/**
 * The pasted token, from where it was given: `--token` (seen by anyone who
 * lists this computer's processes, so it is said), `--token-file` (a file, or
 * `-` for standard input) or SVC_TOKEN.
 */
export async function pastedTokenOf(
  values: { token?: string | undefined; 'token-file'?: string | undefined },
  io: CliIo,
): Promise<string | undefined> {
  if (values.token !== undefined && values['token-file'] !== undefined) {
    throw new UsageError('sync: give --token or --token-file, not both');
  }
  if (values.token !== undefined) {
    io.stderr(
      'sync: a token given with --token can be read by other users of this computer in the process list; prefer SVC_TOKEN or --token-file\n',
    );
    return values.token;
  }
  const from = values['token-file'];
  if (from === undefined) return io.env.SVC_TOKEN;
  let text: string;
  if (from === '-') {
    if (io.readStdin === undefined)
      throw new UsageError('sync: --token-file -: there is no standard input to read');
    text = await io.readStdin();
  } else {
    try {
      text = await readFile(from, 'utf8');
    } catch (error) {
      throw new UsageError(
        `sync: --token-file '${from}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token)) {
    throw new UsageError(`sync: --token-file '${from}' must hold one token and nothing else`);
  }
  return token;
}

/**
 * Who the token acts as and for which organization, read once per run: the
 * engine's first full pull takes this answer (readMeAhead) instead of asking
 * again. Without `org_id` in `/v1/me`, the organizations list says which.
 */
async function readIdentity(
  api: ApiClient,
  mirror: Mirror,
  memo: Map<string, unknown>,
  signal: AbortSignal | undefined,
  say: (event: SyncEvent) => void,
): Promise<{ me: SyncIdentity; orgId: string }> {
  const store = new MirrorPullStore(mirror);
  const me = await readMeAhead({
    api,
    memo,
    // Part of the sync, asked by no person: a `user` request would hold the pull to the at-work share.
    lane: 'background',
    signal,
    store,
    // A broken answer with the identity the mirror remembers: that one stands, said as the engine says it.
    onResourceSkipped: ({ collection, scope, error }) =>
      say({ type: 'resource-skipped', collection, scope, error: errorInfo(error) }),
  });
  if (me.org_id === null || me.org_id === '') {
    throw new Error(
      'the service did not say which organization the token belongs to (GET /v1/me has no org_id, and the organizations list does not name exactly one)',
    );
  }
  return { me: { username: me.username, user_id: me.user_id }, orgId: me.org_id };
}

/** Operations that did not settle: anything left but `done`, conflicts included. */
function unsettledCount(mirror: Mirror): number {
  return mirror.outbox.list(UNSETTLED_STATES).length;
}

export async function syncCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('sync', args, {
    'base-url': { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    db: { type: 'string' },
    once: { type: 'boolean' },
    watch: { type: 'boolean' },
    'time-budget': { type: 'string' },
  });
  const file = required('sync', 'db', values.db);
  const runBudgetMs = timeBudgetOf(values['time-budget']);
  if (values.once && values.watch) throw new UsageError('sync: give --once or --watch, not both');
  const { baseUrl, credentials } = await credentialsOf(
    file,
    values['base-url'],
    await pastedTokenOf(values, io),
  );

  const api = new ApiClient({ baseUrl, credentials });
  let mirror: Mirror | null = null;
  let engine: SyncEngine | null = null;
  let pulled = 0;
  let pushed = 0;
  // What the last full pull could not sync (a later one that synced it clears it).
  let fullPull = false;
  let failed: CollectionFailure[] = [];
  const summary = (): SyncCommandSummary => ({
    pulled,
    pushed,
    conflicts: mirror?.outbox.openConflictCount() ?? 0,
    tasks: mirror?.tasks.total() ?? 0,
    requests: api.stats.requests,
    not_modified: api.stats.notModified,
    failed: failed.map(collectionFailureLine),
    blocked: mirror === null ? [] : blockedChanges(mirror),
  });
  const printSummary = () => io.stdout(`${JSON.stringify(summary())}\n`);
  // One printer for the run: it remembers how far each upload was told.
  const printProgress = progressPrinter(io, file);
  try {
    mirror = await openMirror(file);
    // The engine's pulls keep what they learn here: /v1/me is asked once per run.
    const pullMemo = new Map<string, unknown>();
    const { me, orgId } = await readIdentity(api, mirror, pullMemo, io.signal, printProgress);
    const known = mirror.identity.account();
    if (known.orgId !== null && known.orgId !== orgId) {
      throw new UsageError(
        `sync: ${file} is the mirror of organization ${known.orgId}, but the token is for ${orgId}; use another --db for this account`,
      );
    }
    mirror.identity.setAccount({ orgId, username: me.username });
    // This run's token may write where an earlier one could not: blocked operations try again.
    mirror.outbox.unblockAll();

    // Set from the engine's events (a closure), so kept in an object the compiler does not narrow.
    const outcome: { signedOut: SignedOutError | null } = { signedOut: null };
    engine = new SyncEngine({
      mirror,
      api,
      me,
      pullMemo,
      ...(runBudgetMs !== null ? { pullRunPolicy: { runBudgetMs } } : {}),
      onEvent: (event) => {
        printProgress(event);
        if (event.type === 'pushed') pushed += 1;
        if (event.type === 'sync-started') fullPull = event.tier === 'full';
        if (event.type === 'sync-finished') {
          pulled += event.summary.pulled;
          if (fullPull) failed = event.summary.failed_collections;
        }
        if (event.type === 'signed-out') outcome.signedOut ??= new SignedOutError('sync', event.reason, null);
      },
    });

    if (values.watch) {
      await watch(engine, io, () => outcome.signedOut !== null);
      if (outcome.signedOut) throw outcome.signedOut;
    } else {
      await engine.syncOnce({ reason: 'sync-now', ...(io.signal ? { signal: io.signal } : {}) });
    }

    printSummary();
    if (failed.length > 0) {
      // A partial sync is not a success: what did sync stays mirrored, and the next sync tries the rest.
      io.stderr(
        `sync: ${failed.length} collection(s) not synced (${failed.map(unitName).join(', ')}); the rest was synced, and the next sync tries them again\n`,
      );
    }
    const blocked = blockedChanges(mirror);
    if (blocked.length > 0) {
      // Never a bare exit 1: which changes wait, and what would let them go.
      const scopes = [...new Set(blocked.map((change) => change.scope))];
      io.stderr(
        `sync: ${blocked.length} change(s) blocked: ${blocked.map((change) => `${change.entity_type} ${change.kind} (needs ${change.scope})`).join(', ')}; ` +
          `sign in again allowing ${scopes.join(' ')} (login --db ${file}), or drop them: outbox --db ${file}\n`,
      );
    }
    const open = mirror.outbox.openConflictCount();
    const unsettled = unsettledCount(mirror);
    if (open > 0 || unsettled > 0) {
      io.stderr(
        `sync: ${open} conflict(s) open and ${unsettled} operation(s) not settled; see conflicts --db ${file} and outbox --db ${file}\n`,
      );
      return EXIT.failed;
    }
    return failed.length > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    // Whatever happened, tools still get the summary as the last stdout line.
    if (!(error instanceof UsageError)) printSummary();
    throw error;
  } finally {
    // Ends the pull worker (its own connection to the file) before the mirror closes. The
    // worker is unref'd, so while we wait for it to exit nothing else may be keeping this
    // process alive: hold the event loop open until it has.
    const holdOpen = setInterval(() => undefined, 1_000);
    try {
      await engine?.close();
    } finally {
      clearInterval(holdOpen);
    }
    mirror?.close();
    await api.close();
  }
}

/** Runs the scheduler until SIGINT/SIGTERM (the io's signal) or a sign-out. */
async function watch(engine: SyncEngine, io: CliIo, isSignedOut: () => boolean): Promise<void> {
  engine.start();
  io.stderr('sync: watching; stop with Ctrl-C (SIGINT) or SIGTERM\n');
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (isSignedOut()) done();
    }, 200);
    const done = () => {
      clearInterval(timer);
      io.signal?.removeEventListener('abort', done);
      resolve();
    };
    if (io.signal?.aborted) done();
    else io.signal?.addEventListener('abort', done, { once: true });
  });
  await engine.stop();
}
