// One account as the UI lists it (plain data, fit for IPC), and which kinds
// its sign-in leaves read-only. Apart from the account manager so that the
// sign-in flow, which answers with a summary, needs nothing of the manager.
import { kindsNeeding, kindsNotGranted } from '../push/kinds/app-scopes';
import type {
  AccountIdentity,
  AccountRecord,
  AccountRegistry,
  SignedOutReason,
  TokenKind,
} from './account-registry';
import type { AccountMirror, AccountRuntime, AccountState, AccountSyncEngine } from './account-runtime';

/** One account as the UI lists it: plain data, fit for IPC. */
export interface AccountSummary {
  id: string;
  base_url: string;
  auth_url: string;
  client_id: string;
  identity: AccountIdentity;
  token_kind: TokenKind;
  read_only: boolean;
  /** Absolute path of the account's mirror file. */
  mirror_path: string;
  state: AccountState;
  signed_out_reason: SignedOutReason | null;
  queued_edits: number;
  current: boolean;
  /** When the sign-in lapses and must be done again (no refresh token was given); null when it renews itself. */
  session_ends_at: string | null;
  /**
   * The writable kinds (outbox entity types) this sign-in may not write, each
   * with the scope it lacks: not granted at sign-in, or refused since by the
   * service. Signing in again asks for the scopes anew.
   */
  read_only_kinds: ReadOnlyKind[];
}

/** A kind this account may read but not write, and the scope that would let it. */
export interface ReadOnlyKind {
  kind: string;
  scope: string;
}

/** `record`'s summary; its state from `runtime` when the account has one open. */
export function summarizeAccount<M extends AccountMirror, E extends AccountSyncEngine>(
  record: AccountRecord,
  registry: AccountRegistry,
  runtime: AccountRuntime<M, E> | undefined,
): AccountSummary {
  const status = runtime?.status;
  return {
    id: record.id,
    base_url: record.base_url,
    auth_url: record.auth_url,
    client_id: record.client_id,
    identity: record.identity,
    token_kind: record.token_kind,
    read_only: record.read_only,
    mirror_path: registry.mirrorPath(record),
    state: status?.state ?? 'signed-out',
    signed_out_reason: status ? status.signed_out_reason : record.signed_out_reason,
    queued_edits: status?.queued_edits ?? 0,
    current: registry.contents.current_account_id === record.id,
    session_ends_at: record.session_ends_at ?? null,
    read_only_kinds: readOnlyKindsOf(record),
  };
}

/** The kinds `record`'s sign-in may not write: not granted, or refused by the service since. */
export function readOnlyKindsOf(record: AccountRecord): ReadOnlyKind[] {
  const kinds = kindsNotGranted(record.granted_scopes ?? null);
  for (const scope of record.refused_scopes ?? []) {
    for (const kind of kindsNeeding(scope)) if (!kinds.has(kind)) kinds.set(kind, scope);
  }
  return [...kinds].map(([kind, scope]) => ({ kind, scope }));
}
