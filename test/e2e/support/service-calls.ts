// Calls to the service as a client makes them, straight to the emulator (not
// through the app): what the server holds now, and the peer's edits that race ours.
import type { RunningEmulator } from '../../../emulator/start';

export interface ServiceAnswer {
  status: number;
  etag: string | null;
  body: Record<string, unknown>;
}

export interface ServiceCallOptions {
  /** The person's live token unless another is given (the peer's, a test token). */
  token?: string;
  body?: unknown;
  ifMatch?: string;
  idempotencyKey?: string;
}

/** One request as a client would send it: a PATCH body is a merge patch, a body any other time JSON. */
export async function callService(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: ServiceCallOptions = {},
): Promise<ServiceAnswer> {
  const response = await fetch(new URL(path, emulator.baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? emulator.tokens.live}`,
      ...(options.body === undefined
        ? {}
        : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }),
      ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
      ...(options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** A resource as the server holds it now; anything but 200 fails the test with the path and the answer. */
export async function readFromServer(
  emulator: RunningEmulator,
  path: string,
  token: string = emulator.tokens.live,
): Promise<Record<string, unknown>> {
  const answer = await callService(emulator, 'GET', path, { token });
  if (answer.status !== 200) {
    throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

/** The first project the service lists for the organization (read with `token`, live unless given). */
export async function firstProject(
  emulator: RunningEmulator,
  token: string = emulator.tokens.live,
): Promise<{ project_id: string; name: string }> {
  const projects = await readFromServer(emulator, `/v1/projects/${emulator.orgId}`, token);
  const first = (projects.data as { project_id: string; name: string }[])[0];
  if (!first) throw new Error('the seed has no project');
  return first;
}

/** A token of the peer (another member of the organization) with the scopes the race needs. */
export function peerToken(emulator: RunningEmulator, scopes: string[]): string {
  return emulator.control.mintToken({ principalUserId: emulator.peer.user_id, scopes }).token;
}

/** An organization-wide list the service answers grouped by project (`/v1/goals`, `/v1/milestones`), as one list. */
export async function readAcrossProjects<T>(emulator: RunningEmulator, path: string): Promise<T[]> {
  const body = await readFromServer(emulator, path);
  return (body.projects as { data: T[] }[]).flatMap((group) => group.data);
}

/** The peer's edit racing ours: it reads the resource's ETag and sends a merge patch under it, as its client would. */
export async function peerPatch(
  emulator: RunningEmulator,
  path: string,
  body: Record<string, unknown>,
  scopes: string[],
): Promise<ServiceAnswer> {
  const token = peerToken(emulator, scopes);
  const current = await callService(emulator, 'GET', path, { token });
  return callService(emulator, 'PATCH', path, { token, body, ifMatch: current.etag ?? '' });
}
