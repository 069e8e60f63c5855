// What can go wrong with accounts, as typed values the app branches on
// (`type`), with messages meant for the person. None carries a token.

export type AccountErrorType =
  | 'account-mismatch'
  | 'account-not-found'
  | 'token-not-accepted'
  | 'registry-unreadable'
  | 'mirror-file-refused'
  | 'server-settings-refused';

export abstract class AccountError extends Error {
  abstract readonly type: AccountErrorType;
}

/** Who a sign-in or an account is for. */
export interface AccountIdentityLabel {
  username: string;
  org_id: string | null;
}

/** Signing in again to an account as someone else, or to another organization. */
export class AccountMismatchError extends AccountError {
  override readonly name = 'AccountMismatchError';
  readonly type = 'account-mismatch';
  constructor(
    readonly accountId: string,
    readonly expected: AccountIdentityLabel,
    readonly actual: AccountIdentityLabel,
  ) {
    super(
      `This account is ${describe(expected)}, but the sign-in was for ${describe(actual)}. ` +
        `Sign in as ${expected.username}${expected.org_id ? ` in ${expected.org_id}` : ''} to resume it, or add the other one as a new account.`,
    );
  }
}

export class AccountNotFoundError extends AccountError {
  override readonly name = 'AccountNotFoundError';
  readonly type = 'account-not-found';
  constructor(readonly accountId: string) {
    super(`There is no account ${accountId}.`);
  }
}

const TOKEN_REFUSAL_MESSAGES = {
  'token-expired': 'The service says this token has expired. Make a new one and paste it.',
  'token-revoked': 'The service says this token was revoked. Make a new one and paste it.',
  'token-invalid':
    'The service does not recognise this token: check that it was copied whole and is for this server.',
} as const;

/** The service refused a pasted token (or a fresh OAuth token) when asked whose it is. */
export class TokenNotAcceptedError extends AccountError {
  override readonly name = 'TokenNotAcceptedError';
  readonly type = 'token-not-accepted';
  constructor(readonly reason: keyof typeof TOKEN_REFUSAL_MESSAGES) {
    super(TOKEN_REFUSAL_MESSAGES[reason]);
  }
}

/** The accounts file exists but cannot be read as one; nothing is overwritten. */
export class AccountRegistryUnreadableError extends AccountError {
  override readonly name = 'AccountRegistryUnreadableError';
  readonly type = 'registry-unreadable';
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`The accounts file ${file} cannot be read (${detail}); it was left as it is.`);
  }
}

/** An account whose mirror file is not the app's own name for it in its own folder: never opened or removed. */
export class MirrorFileRefusedError extends AccountError {
  override readonly name = 'MirrorFileRefusedError';
  readonly type = 'mirror-file-refused';
  constructor(
    readonly accountId: string,
    readonly file: string,
  ) {
    super(
      `The accounts file names ${JSON.stringify(file)} as the mirror of account ${accountId}, which is not this app's ` +
        `own file name for it (mirror-${accountId}.sqlite beside accounts.json); nothing was opened or removed.`,
    );
  }
}

/** A base_url that is not an http(s) address (auth_url problems are the auth layer's AuthUrlRefusedError). */
export class ServerSettingsRefusedError extends AccountError {
  override readonly name = 'ServerSettingsRefusedError';
  readonly type = 'server-settings-refused';
  constructor(
    readonly field: 'base_url' | 'client_id',
    readonly reason: string,
  ) {
    super(`The ${field === 'base_url' ? 'server address' : 'client id'} was refused: ${reason}.`);
  }
}

function describe(who: AccountIdentityLabel): string {
  return who.org_id ? `${who.username} in organization ${who.org_id}` : who.username;
}
