// The client's hold on its bearer token: which token to send, one refresh per
// expiry however many requests saw it, and a token the service refused for good
// never sent again. Apart from the request loop because it is state about the
// session, not about any one request; tokens are remembered only by
// fingerprint (SHA-256), never by value.
import { createHash } from 'node:crypto';
import type { CredentialSource } from './credentials';
import { ApiError, NetworkError, SignedOutError, type SignedOutReason } from './errors';
import type { RateGovernor } from './rate-governor';

export class TokenSession {
  /** The refresh under way (or last done) and the expired token it replaces: one refresh per expiry. */
  private refreshing: { from: string; done: Promise<void> } | null = null;
  /** The token the service last refused for good, so we stop sending it. */
  private signedOut: { tokenId: string; reason: SignedOutReason } | null = null;
  /** The token last sent: the service counts its budget per token. */
  private lastTokenId: string | null = null;

  constructor(
    private readonly credentials: CredentialSource,
    private readonly governor: RateGovernor,
    /** Told after each refresh that succeeded (the client counts them). */
    private readonly onRefreshed: () => void,
  ) {}

  /** Whether an expired token can be refreshed rather than signing out. */
  get canRefresh(): boolean {
    return this.credentials.refresh !== undefined;
  }

  async currentToken(operation: string): Promise<string> {
    const token = await this.credentials.getAccessToken();
    const tokenId = tokenFingerprint(token);
    if (this.signedOut !== null && this.signedOut.tokenId === tokenId) {
      throw new SignedOutError(operation, this.signedOut.reason, null);
    }
    if (this.lastTokenId !== null && this.lastTokenId !== tokenId) this.governor.tokenChanged();
    this.lastTokenId = tokenId;
    return token;
  }

  /**
   * One refresh per expired token, however many requests saw it expire: the
   * first starts it, the others wait for it, later ones see the new token.
   * A refresh that fails on the network leaves the session as it was; any
   * other failure signs out.
   */
  async refreshAfterExpiry(operation: string, expired: string): Promise<void> {
    // `expired` is the expired token's fingerprint.
    const credentials = this.credentials;
    if (!credentials.refresh) throw this.signOut(operation, expired, 'token-expired', null);
    let flight = this.refreshing?.from === expired ? this.refreshing : null;
    if (flight === null) {
      const current = tokenFingerprint(await this.credentials.getAccessToken());
      if (current !== expired) return;
      flight = this.refreshing?.from === expired ? this.refreshing : null;
    }
    if (flight === null) {
      const done = credentials.refresh().then(() => {
        this.onRefreshed();
      });
      flight = { from: expired, done };
      this.refreshing = flight;
      // Forget a refresh that failed on the network, so the next expiry tries again.
      done.catch((error: unknown) => {
        if (error instanceof NetworkError && this.refreshing?.done === done) this.refreshing = null;
      });
    }
    try {
      await flight.done;
    } catch (error) {
      if (error instanceof NetworkError) throw error;
      if (error instanceof ApiError && error.kind === 'aborted') throw error;
      const signedOut = this.signOut(operation, expired, 'token-expired', null);
      // The credentials' own sign-out says what to do (a login's: sign in again), so it is kept.
      throw error instanceof SignedOutError ? error : signedOut;
    }
  }

  signOut(
    operation: string,
    tokenId: string,
    reason: SignedOutReason,
    requestId: string | null,
  ): SignedOutError {
    if (this.signedOut?.tokenId !== tokenId) {
      this.signedOut = { tokenId, reason };
      this.credentials.onSignedOut?.(reason);
    }
    return new SignedOutError(operation, reason, requestId);
  }
}

export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function signedOutReasonOf(type: string): SignedOutReason {
  return type === 'token-expired' || type === 'token-revoked' ? type : 'token-invalid';
}
