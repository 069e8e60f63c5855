// The list of accounts, kept as JSON in the app-data directory beside the
// accounts' mirror files: per account its server, signed-in identity, token
// kind, read-only flag, state and mirror file. No secret is ever written here.
import { randomUUID } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { AccountRegistryUnreadableError, MirrorFileRefusedError } from './account-errors';
import { readJsonFile, writeJsonFile } from '../../db/files/json-file';

export const REGISTRY_FILE_NAME = 'accounts.json';

export const accountIdentitySchema = z.looseObject({
  user_id: z.string().min(1),
  username: z.string().min(1),
  email: z.string().nullable(),
  org_id: z.string().nullable(),
});
export type AccountIdentity = z.infer<typeof accountIdentitySchema>;

/** How the account signed in last: a pasted live or test token, or the browser (OAuth). */
export const tokenKindSchema = z.enum(['live', 'test', 'oauth']);
export type TokenKind = z.infer<typeof tokenKindSchema>;

/**
 * Why an account is signed out:
 * - `by-person`: signed out on purpose.
 * - `sign-in-refused`: the service no longer accepts the saved sign-in (a spent or revoked
 *   refresh token, `invalid_grant`; a revoked, expired or unknown pasted token).
 * - `sign-in-not-kept`: no saved sign-in was found at start (kept for the session only,
 *   no real keychain; or the keychain lost it).
 */
export const signedOutReasonSchema = z.enum(['by-person', 'sign-in-refused', 'sign-in-not-kept']);
export type SignedOutReason = z.infer<typeof signedOutReasonSchema>;

/** Account ids name files (the mirror's): only characters that cannot leave the folder. */
const ACCOUNT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const accountRecordSchema = z
  .looseObject({
    id: z.string().regex(ACCOUNT_ID_PATTERN),
    base_url: z.string().min(1),
    auth_url: z.string().min(1),
    client_id: z.string().min(1),
    identity: accountIdentitySchema,
    token_kind: tokenKindSchema,
    /** A test token: reads only; the UI says so instead of failing on the first write. */
    read_only: z.boolean(),
    /** The mirror's file name, relative to the registry's directory. */
    mirror_file: z.string().min(1),
    signed_in: z.boolean(),
    signed_out_reason: signedOutReasonSchema.nullable(),
    created_at: z.string(),
    signed_in_at: z.string().nullable(),
    /**
     * When the sign-in lapses for good (ISO 8601): the sign-in server gave no
     * refresh token, so the session lasts as long as its access token. Null or
     * absent when it renews itself (or a pasted token has no known end).
     */
    session_ends_at: z.string().nullish(),
    /**
     * The scopes the last sign-in was granted, as the token answer said (a
     * server may grant fewer than asked). Null or absent when unknown: a
     * pasted token, whose scopes the contract gives no way to read.
     */
    granted_scopes: z.array(z.string()).nullish(),
    /** Scopes the service refused since that sign-in (403 `insufficient-scope`): its kinds are read-only. */
    refused_scopes: z.array(z.string()).nullish(),
  })
  // The mirror file is deleted on sign-out: an edited accounts.json must not
  // name any other file (`../../x`, an absolute path, another account's mirror).
  .refine((record) => isOwnMirrorFile(record.id, record.mirror_file), {
    path: ['mirror_file'],
    message: "not this account's own mirror file name",
  });
export type AccountRecord = z.infer<typeof accountRecordSchema>;

export const registryFileSchema = z.looseObject({
  version: z.literal(1),
  current_account_id: z.string().nullable(),
  /** The person chose to stay signed in although the OS offers no real keychain. */
  keep_secrets_without_keychain: z.boolean(),
  accounts: z.array(accountRecordSchema),
});
export type RegistryContents = z.infer<typeof registryFileSchema>;

const EMPTY: RegistryContents = {
  version: 1,
  current_account_id: null,
  keep_secrets_without_keychain: false,
  accounts: [],
};

/** A fresh account id; also names the mirror file, so only safe file-name characters. */
export function newAccountId(): string {
  return randomUUID();
}

export function mirrorFileNameFor(accountId: string): string {
  return `mirror-${accountId}.sqlite`;
}

/** Whether `file` is the name the app gives this account's mirror: nothing else is ever opened or removed. */
export function isOwnMirrorFile(accountId: string, file: string): boolean {
  return ACCOUNT_ID_PATTERN.test(accountId) && file === mirrorFileNameFor(accountId);
}

/**
 * The registry file and its contents in memory. Reads once; every change is
 * written atomically (temporary file, flush, rename) before `update` resolves,
 * one change at a time.
 */
export class AccountRegistry {
  #contents: RegistryContents;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly directory: string,
    contents: RegistryContents,
  ) {
    this.#contents = contents;
  }

  get file(): string {
    return join(this.directory, REGISTRY_FILE_NAME);
  }

  /** A missing file is an empty registry; a file that does not parse is an error (never overwritten). */
  static async open(directory: string): Promise<AccountRegistry> {
    const file = join(directory, REGISTRY_FILE_NAME);
    const read = await readJsonFile(file, registryFileSchema);
    if (read.state === 'missing') return new AccountRegistry(directory, structuredClone(EMPTY));
    if (read.state === 'unreadable') throw new AccountRegistryUnreadableError(file, read.reason);
    return new AccountRegistry(directory, read.value);
  }

  get contents(): Readonly<RegistryContents> {
    return this.#contents;
  }

  get accounts(): readonly AccountRecord[] {
    return this.#contents.accounts;
  }

  account(id: string): AccountRecord | undefined {
    return this.#contents.accounts.find((account) => account.id === id);
  }

  /** The account's mirror inside this folder; MirrorFileRefusedError for any other name (checked again here: it is removed on sign-out). */
  mirrorPath(account: AccountRecord): string {
    const path = resolve(this.directory, account.mirror_file);
    if (
      !isOwnMirrorFile(account.id, account.mirror_file) ||
      dirname(path) !== resolve(this.directory) ||
      basename(path) !== account.mirror_file
    ) {
      throw new MirrorFileRefusedError(account.id, account.mirror_file);
    }
    return join(this.directory, account.mirror_file);
  }

  /** Applies `change` to a copy and writes it; the contents change only once the file has. */
  update(change: (draft: RegistryContents) => void): Promise<void> {
    const run = this.#queue.then(async () => {
      const draft = structuredClone(this.#contents);
      change(draft);
      const next = registryFileSchema.parse(draft);
      await this.#write(next);
      this.#contents = next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Adds or replaces the account with `record.id`. */
  putAccount(record: AccountRecord): Promise<void> {
    return this.update((draft) => {
      const index = draft.accounts.findIndex((account) => account.id === record.id);
      if (index === -1) draft.accounts.push(record);
      else draft.accounts[index] = record;
    });
  }

  async #write(contents: RegistryContents): Promise<void> {
    await writeJsonFile(this.file, contents);
  }
}
