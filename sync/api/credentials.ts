// Where the client gets its bearer token, and how it gets a new one. The app
// plugs in its OAuth session or a personal token; the client only asks.
import type { SignedOutReason } from './errors';

export interface CredentialSource {
  /** The token to send now. */
  getAccessToken(): Promise<string>;
  /** Gets a fresh token after a 401 `token-expired` (an OAuth refresh). Absent: expiry signs out. */
  refresh?(): Promise<string>;
  /** Told once per token when the service refuses it for good. */
  onSignedOut?(reason: SignedOutReason): void;
}

/** A fixed token (a personal access token, the headless command's `--token`). */
export function staticCredentials(token: string): CredentialSource {
  return { getAccessToken: () => Promise.resolve(token) };
}
