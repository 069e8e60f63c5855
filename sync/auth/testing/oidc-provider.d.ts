// The part of oidc-provider's API the sign-in tests use (the package ships no
// type declarations). Only test support imports it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string; details: Record<string, unknown> };
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface AccessTokenInstance {
    accountId: string;
    clientId: string;
    scope?: string;
    isExpired: boolean;
  }

  export interface RefreshTokenInstance {
    consumed?: number;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    readonly Grant: new (fields: { accountId: string; clientId: string }) => GrantInstance;
    readonly AccessToken: {
      find(token: string, options?: { ignoreExpiration?: boolean }): Promise<AccessTokenInstance | undefined>;
    };
  }
}
