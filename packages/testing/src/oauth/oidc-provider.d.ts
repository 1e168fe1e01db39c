/** The part of oidc-provider's API the test authorization server uses (the package ships no types). */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export type Interaction = {
    uid: string;
    prompt: {
      name: string;
      details: {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
    };
    params: Record<string, unknown> & { client_id: string };
    session?: { accountId: string };
    grantId?: string;
  };

  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export type StoredAccessToken = {
    accountId: string;
    clientId: string;
    aud?: string | string[];
    scope?: string;
    exp: number;
  };

  export type KoaContext = {
    oidc?: { params?: Record<string, unknown>; client?: { clientId: string } };
  };

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (ctx: KoaContext, ...rest: unknown[]) => void): this;
    readonly Grant: typeof Grant;
    readonly AccessToken: { find(value: string): Promise<StoredAccessToken | undefined> };
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
  export default Provider;
}
