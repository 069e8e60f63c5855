// `login`: the headless command's browser sign-in. Runs the app's OAuth flow,
// prints the consent address on stderr (and opens a browser unless
// --no-browser), then keeps the refresh token beside the database so that
// `sync --db FILE` works afterwards without --token (resolveStoredCredentials).
// A server that gives no refresh token gets a sign-in that lasts as long as
// its access token, kept the same way, and the command says so.
import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { CredentialSource } from '../api/credentials';
import { ApiError } from '../api/errors';
import {
  AccountError,
  AccountMismatchError,
  AccountRegistryUnreadableError,
} from '../accounts/account-errors';
import { type AccountIdentity, accountIdentitySchema } from '../accounts/account-registry';
import { accessTokenKey } from '../accounts/account-secrets';
import { identityOfToken } from '../accounts/identity-check';
import { resolveServerSettings, serverDefaultsFromEnvironment } from '../accounts/server-settings';
import { apiCredentials } from '../auth/api-credentials';
import { AuthError } from '../auth/auth-errors';
import { OAuthSignIn } from '../auth/oauth-flow';
import { kindsNotGranted } from '../push/kinds/app-scopes';
import { FileSecretStore, refreshTokenKey, secretFileBesideDatabase } from '../auth/secret-store';
import { readJsonFile, writeJsonFile } from '../../db/files/json-file';
import { TokenGrant } from '../auth/token-endpoint';
import { TokenKeeper } from '../auth/token-keeper';

/**
 * What the command writes to and reads from: the shape of the headless
 * command's CliIo (sync/cli/cli-io.ts), so its main entry can pass its own,
 * plus what tests replace.
 */
export interface LoginIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Ends a waiting sign-in (Ctrl-C). */
  signal?: AbortSignal;
  /** Opens a URL in the system browser; default the platform's command (openInBrowser). */
  openBrowser?: (url: string) => Promise<void>;
  /** undici dispatcher for every request (tests). */
  dispatcher?: Dispatcher;
}

/** A database file belongs to one account; its secrets are kept under this id in the file beside it. */
const DATABASE_ACCOUNT_ID = 'database';

/** The non-secret half of a headless sign-in: which server and who. */
export const storedLoginSchema = z.looseObject({
  version: z.literal(1),
  base_url: z.string().min(1),
  auth_url: z.string().min(1),
  client_id: z.string().min(1),
  identity: accountIdentitySchema,
  signed_in_at: z.string(),
  /**
   * Only for a sign-in that came without a refresh token (its access token is
   * kept instead): when that token lapses, ISO 8601; null when the server did
   * not say.
   */
  access_expires_at: z.string().nullish(),
  /** The scopes the sign-in was granted (a server may grant fewer than asked); absent from older files: unknown. */
  granted_scopes: z.array(z.string()).nullish(),
});
export type StoredLogin = z.infer<typeof storedLoginSchema>;

/** Where the headless sign-in's server and identity are kept (the refresh token: secretFileBesideDatabase). */
export function loginFileBesideDatabase(databasePath: string): string {
  return `${databasePath}.login.json`;
}

const USAGE = `Usage: login --db FILE [--base-url URL] [--auth-url URL] [--client-id ID] [--no-browser]

Signs in through the browser (OAuth) and keeps the sign-in beside the database
FILE, so that \`sync --db FILE\` works without --token.
  --base-url    the API server (default: $SVC_BASE_URL)
  --auth-url    the sign-in server (default: $SVC_AUTH_URL, else the base URL)
  --client-id   the OAuth client id (default: $SVC_CLIENT_ID, else svcc_desktop)
  --no-browser  only print the sign-in address; open it yourself
`;

/** Exit codes: 0 signed in, 1 sign-in failed or refused, 2 bad arguments. */
export async function runLogin(argv: readonly string[], io: LoginIo): Promise<0 | 1 | 2> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        'base-url': { type: 'string' },
        'auth-url': { type: 'string' },
        'client-id': { type: 'string' },
        db: { type: 'string' },
        'no-browser': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (values.db === undefined || values.db === '') {
    io.stderr(`login needs --db FILE: the database the sign-in is for.\n\n${USAGE}`);
    return 2;
  }
  const database = resolve(values.db);

  try {
    const server = resolveServerSettings(serverDefaultsFromEnvironment(io.env), {
      ...(values['base-url'] !== undefined ? { base_url: values['base-url'] } : {}),
      ...(values['auth-url'] !== undefined ? { auth_url: values['auth-url'] } : {}),
      ...(values['client-id'] !== undefined ? { client_id: values['client-id'] } : {}),
    });
    const previous = await readStoredLogin(database);
    const openBrowser = io.openBrowser ?? openInBrowser;
    const noBrowser = values['no-browser'];

    const signIn = new OAuthSignIn(
      { authUrl: server.auth_url, clientId: server.client_id },
      {
        openUrl: (url) => {
          io.stderr(
            `To sign in, open this address in your browser:\n\n  ${url}\n\nWaiting for the browser...\n`,
          );
          if (noBrowser) return;
          // A browser that cannot be opened is not a failed sign-in: the address is printed above.
          openBrowser(url).catch(() => {
            io.stderr('Could not open a browser; open the address above yourself.\n');
          });
        },
        ...(io.dispatcher ? { dispatcher: io.dispatcher } : {}),
      },
    );
    // The browser's page waits for all of this: it says "Signed in" only once the sign-in is kept.
    const { identity, secretsFile, lastsUntil, grantedScopes } = await signIn.signIn({
      ...(io.signal ? { signal: io.signal } : {}),
      finish: async (grant: TokenGrant) => {
        const me = await identityOfToken(server.base_url, grant.accessToken, {
          ...(io.dispatcher ? { dispatcher: io.dispatcher } : {}),
        });
        // The token answer names the organization only on our service (gaps.md); /v1/me says it too.
        const identity: AccountIdentity = { ...me, org_id: grant.orgId ?? me.org_id };
        if (
          previous &&
          (previous.base_url !== server.base_url ||
            previous.identity.user_id !== identity.user_id ||
            previous.identity.org_id !== identity.org_id)
        ) {
          // The database mirrors another account: its queued edits must not go out under this one.
          throw new AccountMismatchError(
            database,
            { username: previous.identity.username, org_id: previous.identity.org_id },
            { username: identity.username, org_id: identity.org_id },
          );
        }

        // No OS keychain is reachable from plain Node here (that needs a native addon this project
        // does not ship), so the refresh token goes to a 0600 file beside the database.
        const secretsFile = secretFileBesideDatabase(database);
        const store = new FileSecretStore(secretsFile);
        await TokenKeeper.fromGrant(grant, {
          authUrl: server.auth_url,
          clientId: server.client_id,
          store,
          storeKey: refreshTokenKey(DATABASE_ACCOUNT_ID),
          ...(io.dispatcher ? { dispatcher: io.dispatcher } : {}),
        });
        // Without a refresh token the access token is the whole sign-in: kept the same way, for its life.
        if (grant.refreshToken === null)
          await store.set(accessTokenKey(DATABASE_ACCOUNT_ID), grant.accessToken);
        else await store.delete(accessTokenKey(DATABASE_ACCOUNT_ID));
        const lastsUntil =
          grant.refreshToken !== null
            ? undefined
            : grant.expiresAt === null
              ? null
              : new Date(grant.expiresAt).toISOString();
        await writeStoredLogin(database, {
          version: 1,
          ...server,
          identity,
          signed_in_at: new Date().toISOString(),
          ...(lastsUntil !== undefined ? { access_expires_at: lastsUntil } : {}),
          granted_scopes: [...grant.scopes],
        });
        return { identity, secretsFile, lastsUntil, grantedScopes: grant.scopes };
      },
    });
    io.stderr(
      `No OS keychain is reachable from this command, so the ${lastsUntil === undefined ? 'refresh' : 'access'} token is stored unencrypted in\n` +
        `  ${secretsFile}\nreadable only by you (mode 0600). Delete that file to sign out.\n`,
    );
    if (lastsUntil !== undefined) {
      io.stderr(
        `The sign-in server gave no refresh token, so this sign-in lasts only as long as its access token ` +
          `(${lastsUntil === null ? 'the server did not say how long: until the service refuses it' : `until ${lastsUntil}`}); ` +
          `then sign in again with: login --db ${values.db}\n`,
      );
    }
    // A server may grant fewer scopes than asked: say which kinds this database cannot change.
    const notGranted = new Map<string, string[]>();
    for (const [kind, scope] of kindsNotGranted(grantedScopes))
      notGranted.set(scope, [...(notGranted.get(scope) ?? []), `${kind}s`]);
    for (const [scope, kinds] of notGranted) {
      io.stderr(
        `This sign-in was not granted ${scope}: ${kinds.join(' and ')} cannot be changed from this database; ` +
          `to change them, sign in again allowing ${scope}: login --db ${values.db}\n`,
      );
    }
    io.stdout(
      `Signed in as ${identity.username}${identity.org_id ? ` (organization ${identity.org_id})` : ''}. ` +
        `\`sync --db ${values.db}\` now works without --token.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof AuthError || error instanceof AccountError || error instanceof ApiError) {
      io.stderr(`Sign-in failed: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** What `sync` uses when no --token is given: the sign-in `login` kept beside the database. */
export interface StoredCredentials {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  identity: AccountIdentity;
  /** Hand to the API client: renews the access token with the stored refresh token, saving each rotation first. */
  credentials: CredentialSource;
  keeper: TokenKeeper;
  /** The 0600 file holding the refresh token. */
  secretsFile: string;
}

/**
 * The sign-in `login` stored for `databasePath`, or null when there is none
 * (never signed in, or its secrets file was deleted to sign out). Makes no
 * request: the first API call renews the access token, and a refused refresh
 * token (which is then deleted) or a lapsed sign-in surfaces there as the API
 * client's SignedOutError, saying to sign in again with `login`.
 */
export async function resolveStoredCredentials(
  databasePath: string,
  options: { dispatcher?: Dispatcher; now?: () => number } = {},
): Promise<StoredCredentials | null> {
  const database = resolve(databasePath);
  const login = await readStoredLogin(database);
  if (!login) return null;
  const secretsFile = secretFileBesideDatabase(database);
  const store = new FileSecretStore(secretsFile);
  const storeKey = refreshTokenKey(DATABASE_ACCOUNT_ID);
  const accessStoreKey = accessTokenKey(DATABASE_ACCOUNT_ID);
  const refreshToken = await store.get(storeKey);
  const accessToken = refreshToken === undefined ? await store.get(accessStoreKey) : undefined;
  // The person signed out by deleting the file. (A refused refresh token is deleted from it, and
  // the file left: that session ended, and the first request says to sign in again.)
  if (refreshToken === undefined && accessToken === undefined && !(await exists(secretsFile))) return null;
  const keeperOptions = {
    authUrl: login.auth_url,
    clientId: login.client_id,
    store,
    storeKey,
    accessStoreKey,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  const expiresAt = login.access_expires_at ? Date.parse(login.access_expires_at) : null;
  const keeper =
    accessToken !== undefined
      ? await TokenKeeper.fromGrant(
          new TokenGrant(accessToken, null, expiresAt, [], login.identity.org_id),
          keeperOptions,
        )
      : TokenKeeper.resume(keeperOptions);
  return {
    baseUrl: login.base_url,
    authUrl: login.auth_url,
    clientId: login.client_id,
    identity: login.identity,
    credentials: apiCredentials(keeper, { signInAgain: `sign in again with: login --db ${databasePath}` }),
    keeper,
    secretsFile,
  };
}

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** The sign-in `login` kept beside `database` (an absolute path), or null. */
export async function readStoredLogin(database: string): Promise<StoredLogin | null> {
  const file = loginFileBesideDatabase(database);
  const read = await readJsonFile(file, storedLoginSchema);
  if (read.state === 'missing') return null;
  if (read.state === 'unreadable') throw new AccountRegistryUnreadableError(file, read.reason);
  return read.value;
}

async function writeStoredLogin(database: string, login: StoredLogin): Promise<void> {
  await writeJsonFile(loginFileBesideDatabase(database), login);
}

/** The platform's "open this URL" command. */
export function browserCommand(
  platform: NodeJS.Platform,
  url: string,
): { command: string; args: string[]; verbatim: boolean } {
  if (platform === 'darwin') return { command: 'open', args: [url], verbatim: false };
  // `start` is a cmd built-in; the quotes keep cmd from reading the URL's `&` as a command separator.
  if (platform === 'win32')
    return { command: 'cmd', args: ['/d', '/s', '/c', `start "" "${url}"`], verbatim: true };
  return { command: 'xdg-open', args: [url], verbatim: false };
}

/** Opens `url` with the platform's command; rejects when that cannot run or reports failure. */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const { command, args, verbatim } = browserCommand(platform, url);
  return new Promise((resolveOpened, reject) => {
    const child = spawn(command, args, {
      detached: true,
      stdio: 'ignore',
      windowsVerbatimArguments: verbatim,
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolveOpened() : reject(new Error(`${command} exited with ${code}`)),
    );
    child.unref();
  });
}

// Runnable on its own (`tsx sync/cli/login-command.ts --db FILE ...`) until the command's main entry routes to it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const cancel = new AbortController();
  process.once('SIGINT', () => cancel.abort());
  process.exitCode = await runLogin(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    signal: cancel.signal,
  });
}
