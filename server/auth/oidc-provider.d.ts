// oidc-provider 9 ships no type declarations; the little of it we touch is typed here, loosely.
declare module "oidc-provider" {
  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: unknown;
  }
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Any = any;
  export class Provider {
    constructor(issuer: string, configuration: Any);
    issuer: string;
    proxy: boolean;
    callback(): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
    on(event: string, listener: (...args: Any[]) => void): this;
    /** Koa middleware run around every route (it calls `next` for the route). */
    use(middleware: (ctx: Any, next: () => Promise<void>) => Promise<void>): this;
    Client: Any;
    Grant: Any;
    AuthorizationCode: Any;
    Interaction: Any;
    AccessToken: Any;
    IdToken: Any;
    RefreshToken: Any;
    interactionDetails(req: Any, res: Any): Promise<Any>;
  }
  export const errors: {
    OIDCProviderError: new (...args: Any[]) => Error;
    InvalidGrant: new (description?: string) => Error;
    [name: string]: Any;
  };
}
