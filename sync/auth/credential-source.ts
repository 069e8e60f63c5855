// What the API client asks of whatever holds an account's credentials: an
// OAuth session (token-keeper.ts) or a pasted token (pasted-token.ts).

export interface CredentialSource {
  /** A bearer token to send now; renews it first when it is about to expire. */
  getAccessToken(): Promise<string>;
  /**
   * Called after a 401 `token-expired`: a renewed token, or a SignedOutError
   * when the person has to sign in again. `rejectedToken` (the one the 401
   * answered) lets a source skip renewing when it already renewed meanwhile.
   */
  refresh(rejectedToken?: string): Promise<string>;
}
