// Generated from the service's OpenAPI document (/openapi.json) by openapi-typescript; do not edit.
// The answers' integers are decimal strings, as the SDK reads them (sdk/src/json.ts). Regenerate with
// UPDATE_SNAPSHOTS=true npx hardhat test test/sdk/types.test.ts
export interface paths {
  "/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness
     * @description `{status: "ok"}` while the process runs: for restarts. It asks nothing of the database or the nodes (see /ready).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @enum {string} */
              status: "ok";
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/ready": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness: database and every configured network
     * @description Whether this instance can serve: the database answers and every configured network's node answers with the right chain id, each within 3 s (for load balancers). 503 `not_ready` names what failed; it recovers by itself.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @enum {string} */
              status: "ready";
              checks: {
                /** @description "ok" or what failed */
                database: string;
                /** @description per configured network: "ok" or what failed */
                networks: {
                  [key: string]: string;
                };
              };
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_ready`: the database or a configured network's node failed its check (message and checks say which) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @enum {string} */
              error: "not_ready";
              message: string;
              checks: {
                /** @description "ok" or what failed */
                database: string;
                /** @description per configured network: "ok" or what failed */
                networks: {
                  [key: string]: string;
                };
              };
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/authorize": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A message for the address to sign, bound to this authorization request
     * @description Step 1 of a login without the hosted page (docs/reference/login.md): checks the request as /authorize would and answers the message the address signs with personal_sign (the four-line text, or SIWE). The message works once, within 5 minutes; each address holds a bounded number of open messages per client (429 `too_many_challenges`). Never cached (no-store). Counts against LOGIN_RATE_LIMIT.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Registered client id
           * @example your-client-id
           */
          client_id?: string;
          /**
           * @description One of the client's redirect URIs, byte for byte
           * @example https://dapp.example/callback
           */
          redirect_uri?: string;
          /**
           * @description "code"
           * @example code
           */
          response_type?: string;
          /**
           * @description Space-separated; must contain "openid" (profile, offline_access, siwe and holdings are also granted)
           * @example openid
           */
          scope?: string;
          /**
           * @description The address that will sign
           * @example 0x2222222222222222222222222222222222222222
           */
          address?: string;
          /**
           * @description Opaque value echoed in the redirect
           * @example af0ifjsldkj
           */
          state?: string;
          /**
           * @description Echoed in the ID token
           * @example n-0S6_WzA2Mj
           */
          nonce?: string;
          /**
           * @description PKCE S256 challenge (required for public clients)
           * @example E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM
           */
          code_challenge?: string;
          /**
           * @description "S256"
           * @example S256
           */
          code_challenge_method?: string;
          /**
           * @description "en" (default) or "ja"
           * @example en
           */
          lang?: string;
          /**
           * @description "text" (default: the four-line message) or "siwe" (EIP-4361)
           * @example text
           */
          message_format?: string;
          /**
           * @description Chain whose wallet contracts are asked (EIP-1271); also the SIWE Chain ID
           * @example mainnet
           */
          network?: string;
          /**
           * @description OpenID Connect claims request parameter (JSON): {"id_token": {"holdings": {"collections": [...]}}} asks for the holdings claim of these collections, for this login
           * @example {"id_token":{"holdings":null}}
           */
          claims?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              message: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `invalid_client`: client_id names no registered client; `invalid_redirect_uri`: redirect_uri is not registered for this client; `unsupported_response_type`: response_type is not "code"; `invalid_scope`: scope does not contain "openid"; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_lang`: lang is not a language tag; `unknown_network`: the network is not one of the registry's names; `unindexed_network`: the client's holdings name a network this service does not index */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                | "invalid_request"
                | "invalid_client"
                | "invalid_redirect_uri"
                | "unsupported_response_type"
                | "invalid_scope"
                | "invalid_address"
                | "invalid_lang"
                | "unknown_network"
                | "unindexed_network";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After); `too_many_challenges`: this client address holds too many open sign-in messages (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests" | "too_many_challenges";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/login": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Redeem a signed message for an authorization code
     * @description Step 2: the signature of a message /api/authorize handed out (an EOA's, or a contract wallet's checked on its network's node, EIP-1271/6492) becomes an authorization code, which the dApp's backend exchanges at /api/token. The example body shows the shape only: its signature is no one's, so it is refused (401 `invalid_challenge` or `invalid_signature`); sign the message of step 1 in a wallet. Never cached (no-store). Counts against LOGIN_RATE_LIMIT.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          /**
           * @example {
           *       "address": "0x2222222222222222222222222222222222222222",
           *       "signature": "0x1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111",
           *       "client_id": "your-client-id",
           *       "redirect_uri": "https://dapp.example/callback",
           *       "state": "af0ifjsldkj"
           *     }
           */
          "application/json": {
            /** @description The address that signed */
            address: string;
            /** @description EIP-191 personal_sign signature (65 bytes), EIP-1271 wallet signature or EIP-6492 wrapper */
            signature: string;
            client_id: string;
            /** @description Narrows the challenge to this redirect URI */
            redirect_uri?: string;
            /** @description Echoed in the answer and the redirect URL (falls back to the one given to /api/authorize) */
            state?: string;
            /** @description Chain on which a contract wallet is asked (defaults to the challenge's) */
            network?: string;
            /** @description The message signed (optional: the open challenges of address and client are tried) */
            message?: string;
            /** @description Language of a gate's refusal: "en" (default) or "ja" */
            lang?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: string;
              redirect_url: string;
              state: string | null;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `malformed_json`: the body is not JSON; `invalid_client`: client_id names no registered client; `invalid_redirect_uri`: redirect_uri is not registered for this client; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_lang`: lang is not a language tag; `unknown_network`: the network is not one of the registry's names; `malformed_signature`: the signature is not hex bytes of a signature (wrong length, high s); `network_mismatch`: the signed message names another network; `unsupported_network`: a contract wallet's signature on a network this service has no node for */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                | "invalid_request"
                | "malformed_json"
                | "invalid_client"
                | "invalid_redirect_uri"
                | "invalid_address"
                | "invalid_lang"
                | "unknown_network"
                | "malformed_signature"
                | "network_mismatch"
                | "unsupported_network";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_challenge`: no open sign-in message for this address and client (expired after 5 minutes, used, or never asked); `invalid_signature`: the signature does not prove the address (issuer) signed this text */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_challenge" | "invalid_signature";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `access_denied`: the signer does not meet the client's holdings gate, as indexed at the blocks the message names */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "access_denied";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `payload_too_large`: the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "payload_too_large";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `unsupported_media_type`: the body is not application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "unsupported_media_type";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_rate_limited" | "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/metadata/x509": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * ID-token public keys as {kid: PEM} (the predecessor's key endpoint)
     * @description The public keys ID tokens are signed with, by key id, in PEM: what the predecessor's clients read. New clients read /jwks through OpenID discovery instead.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              [key: string]: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/client": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A client's title, description, logo and home page (the predecessor's client endpoint)
     * @description What a relying party shows about itself, in lang when it has texts in it. Public: cached a minute (Cache-Control). 400 `invalid_request` without client_id, 404 `not_found` for an unknown one.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Registered client id (required)
           * @example your-client-id
           */
          client_id?: string;
          /**
           * @description Language of the texts: "en" (default) or "ja"; others fall back to English
           * @example en
           */
          lang?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              client_id: string;
              /** @description In lang, else English, else the client's name */
              title: string;
              /** @description In lang, else English, else "" */
              description: string;
              /** @description http(s) URL or "" */
              logo_url: string;
              /** @description http(s) URL or ""; also an audience of the client's ID tokens */
              home_url: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `invalid_lang`: lang is not a language tag */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "invalid_lang";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Token endpoint (oidc-provider)
     * @description Step 3 of a login, from the dApp's backend: a form body (application/x-www-form-urlencoded), grant_type authorization_code (code, redirect_uri, code_verifier) or refresh_token (refresh_token); the client secret in a Basic header or as client_id + client_secret. Answers access, ID and refresh tokens (no-store). Refusals are RFC 6749's `{error, error_description}`. A code comes from /api/login and works once, so the example shows the form's fields only: see docs/reference/login.md. Counts against LOGIN_RATE_LIMIT.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          /**
           * @example {
           *       "grant_type": "authorization_code",
           *       "code": "the-code-from-api-login",
           *       "redirect_uri": "https://dapp.example/callback",
           *       "client_id": "your-client-id",
           *       "client_secret": "your-client-secret"
           *     }
           */
          "application/x-www-form-urlencoded": {
            /** @description authorization_code, refresh_token, or client_credentials (a confidential client's own token) */
            grant_type: string;
            /** @description authorization_code: the code /api/login answered (it works once) */
            code?: string;
            /** @description authorization_code: the redirect_uri the code was asked for */
            redirect_uri?: string;
            /** @description authorization_code: the PKCE verifier, when the code was asked with a code_challenge */
            code_verifier?: string;
            /** @description refresh_token: the refresh token a previous answer gave */
            refresh_token?: string;
            /** @description The client, when its secret is not in a Basic header */
            client_id?: string;
            /** @description The client's secret, when not in a Basic header */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              access_token: string;
              /** @enum {string} */
              token_type: "Bearer";
              /** @description Seconds */
              expires_in: number;
              /** @description JWT (authorization_code grant) */
              id_token?: string;
              refresh_token?: string;
              scope: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed, the body is not a form, or a public client asked for client_credentials; `invalid_grant`: the code or refresh token is unknown, used, expired, or was issued to another client or redirect_uri (or PKCE failed); `unsupported_grant_type`: grant_type is not authorization_code, refresh_token or client_credentials */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "invalid_request" | "invalid_grant" | "unsupported_grant_type";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `invalid_client`: the client is unknown or its secret is wrong */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "invalid_client";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `server_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "server_error";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Token endpoint (the predecessor's path)
     * @description Step 3 of a login, from the dApp's backend: a form body (application/x-www-form-urlencoded), grant_type authorization_code (code, redirect_uri, code_verifier) or refresh_token (refresh_token); the client secret in a Basic header or as client_id + client_secret. Answers access, ID and refresh tokens (no-store). Refusals are RFC 6749's `{error, error_description}`. A code comes from /api/login and works once, so the example shows the form's fields only: see docs/reference/login.md. Counts against LOGIN_RATE_LIMIT.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          /**
           * @example {
           *       "grant_type": "authorization_code",
           *       "code": "the-code-from-api-login",
           *       "redirect_uri": "https://dapp.example/callback",
           *       "client_id": "your-client-id",
           *       "client_secret": "your-client-secret"
           *     }
           */
          "application/x-www-form-urlencoded": {
            /** @description authorization_code, refresh_token, or client_credentials (a confidential client's own token) */
            grant_type: string;
            /** @description authorization_code: the code /api/login answered (it works once) */
            code?: string;
            /** @description authorization_code: the redirect_uri the code was asked for */
            redirect_uri?: string;
            /** @description authorization_code: the PKCE verifier, when the code was asked with a code_challenge */
            code_verifier?: string;
            /** @description refresh_token: the refresh token a previous answer gave */
            refresh_token?: string;
            /** @description The client, when its secret is not in a Basic header */
            client_id?: string;
            /** @description The client's secret, when not in a Basic header */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              access_token: string;
              /** @enum {string} */
              token_type: "Bearer";
              /** @description Seconds */
              expires_in: number;
              /** @description JWT (authorization_code grant) */
              id_token?: string;
              refresh_token?: string;
              scope: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed, the body is not a form, or a public client asked for client_credentials; `invalid_grant`: the code or refresh token is unknown, used, expired, or was issued to another client or redirect_uri (or PKCE failed); `unsupported_grant_type`: grant_type is not authorization_code, refresh_token or client_credentials */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "invalid_request" | "invalid_grant" | "unsupported_grant_type";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `invalid_client`: the client is unknown or its secret is wrong */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "invalid_client";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `server_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "server_error";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description RFC 6749 error code
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              error_description: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/token/{network}/{contract}/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A token: holder(s), tokenURI, resolved metadata and image, issuer-signed metadata
     * @description The holder (ERC-721) or holders (ERC-1155) from the index, the tokenURI and the metadata document it names with an image URL a browser can load, and the issuer-signed metadata of the metadata service. Metadata is cached (every instance shares it); a read waits at most METADATA_FETCH_WAIT_MS for it, then answers with what the cache holds (metadataError "pending" when nothing yet). 404 `not_found` when the index has no such token (never minted, burned, or not indexed). Counts against the data routes' rate limit.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Comma-separated issuers whose statements the answer carries first (at most SIGNED_METADATA_ANSWER_MAX_ISSUERS); the answer is filled up with the most recently posted ones
           * @example
           */
          issuers?: string;
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description When the target has more current statements than SIGNED_METADATA_ANSWER_MAX_ISSUERS: how many the answer left out (it carries the issuers named in issuers first, then the most recent) */
            "X-Signed-Omitted"?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @description EIP-55 checksummed address */
              contract: string;
              /** @description Token id: a JSON number with all its digits */
              id: string;
              standard: "erc721" | "erc1155";
              /** @description ERC-721: the owner (from the index) */
              owner?: string;
              /** @description ERC-1155: holders and balances (from the index), largest first, at most 100 */
              balances?: {
                /** @description EIP-55 checksummed address */
                owner: string;
                balance: string;
              }[];
              /** @description tokenURI(id), or uri(id) with {id} substituted for ERC-1155 */
              tokenURI: string | null;
              /** @description The metadata JSON object as served, or null */
              metadata: {
                [key: string]: unknown;
              } | null;
              /** @description The image as a URL a browser can load (ipfs:// and ar:// through the gateways) */
              image: string | null;
              /** @description Why metadata is null; "pending" while it is being read */
              metadataError: string | null;
              /** @description When the service last read the document (or the error) metadata and metadataError come from (ISO 8601); a failed read that kept the document read before does not move it. null when it was never read (pending) or left out */
              metadataUpdatedAt: string | null;
              /**
               * @description Present (true) when this item's metadata was left out because the answer's metadata reached METADATA_ANSWERS_MAX_BYTES; tokenURI, metadata, image and metadataUpdatedAt are then null and metadataError says so. Ask for fewer items or for the token alone.
               * @enum {boolean}
               */
              metadataOmitted?: true;
              /** @description Issuer-signed metadata from the metadata service, by issuer: at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers, those named in the issuers parameter first, then the most recently posted */
              signed: {
                [key: string]: unknown;
              };
              /** @description Present when signed left out issuers' statements (more than SIGNED_METADATA_ANSWER_MAX_ISSUERS): how many */
              signedOmitted?: string;
              /** @description With signedOmitted: why, and how to ask for the others */
              signedError?: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `metadata_busy`: this instance builds as many answers with token metadata as it takes (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable" | "metadata_busy";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/token/{network}/{contract}/{id}/refresh": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Read a token's metadata again now (rate-limited per client), then answer like GET
     * @description Reads the tokenURI and its document again whatever the cache holds, then answers as GET /token does. No body. Counts against the data routes' rate limit and METADATA_FETCH_REFRESH_RATE_LIMIT per minute and client (429 `too_many_requests`).
     */
    post: {
      parameters: {
        query?: {
          /**
           * @description Comma-separated issuers whose statements the answer carries first (at most SIGNED_METADATA_ANSWER_MAX_ISSUERS); the answer is filled up with the most recently posted ones
           * @example
           */
          issuers?: string;
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description When the target has more current statements than SIGNED_METADATA_ANSWER_MAX_ISSUERS: how many the answer left out (it carries the issuers named in issuers first, then the most recent) */
            "X-Signed-Omitted"?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @description EIP-55 checksummed address */
              contract: string;
              /** @description Token id: a JSON number with all its digits */
              id: string;
              standard: "erc721" | "erc1155";
              /** @description ERC-721: the owner (from the index) */
              owner?: string;
              /** @description ERC-1155: holders and balances (from the index), largest first, at most 100 */
              balances?: {
                /** @description EIP-55 checksummed address */
                owner: string;
                balance: string;
              }[];
              /** @description tokenURI(id), or uri(id) with {id} substituted for ERC-1155 */
              tokenURI: string | null;
              /** @description The metadata JSON object as served, or null */
              metadata: {
                [key: string]: unknown;
              } | null;
              /** @description The image as a URL a browser can load (ipfs:// and ar:// through the gateways) */
              image: string | null;
              /** @description Why metadata is null; "pending" while it is being read */
              metadataError: string | null;
              /** @description When the service last read the document (or the error) metadata and metadataError come from (ISO 8601); a failed read that kept the document read before does not move it. null when it was never read (pending) or left out */
              metadataUpdatedAt: string | null;
              /**
               * @description Present (true) when this item's metadata was left out because the answer's metadata reached METADATA_ANSWERS_MAX_BYTES; tokenURI, metadata, image and metadataUpdatedAt are then null and metadataError says so. Ask for fewer items or for the token alone.
               * @enum {boolean}
               */
              metadataOmitted?: true;
              /** @description Issuer-signed metadata from the metadata service, by issuer: at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers, those named in the issuers parameter first, then the most recently posted */
              signed: {
                [key: string]: unknown;
              };
              /** @description Present when signed left out issuers' statements (more than SIGNED_METADATA_ANSWER_MAX_ISSUERS): how many */
              signedOmitted?: string;
              /** @description With signedOmitted: why, and how to ask for the others */
              signedError?: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `metadata_busy`: this instance builds as many answers with token metadata as it takes (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable" | "metadata_busy";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/collection/{network}/{contract}/refresh": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The status of a collection's metadata refresh on this instance
     * @description The last contract-wide refresh this instance ran or runs of the contract; `state: "none"` when there is none.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A contract-wide metadata refresh on this instance (docs/reference/collections.md#refreshing-a-collections-metadata) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @description none: this instance has not refreshed the collection (or forgot it) */
              state: "none" | "running" | "done" | "failed";
              /** @description ISO 8601; null for none */
              startedAt: string | null;
              /** @description ISO 8601; null while it runs */
              finishedAt: string | null;
              /** @description Tokens read again so far */
              read: string;
              /** @description Of those, reads that stored an answer (a document, or why there is none) */
              stored: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Read every indexed token's metadata of a collection again, in the background
     * @description Starts reading the tokenURI and document of every token the index holds of the contract again, through the token metadata queue and its limits per address and per contract, and answers 202 with its status; a refresh asked while one runs joins it (`joined: true`). 429 `refresh_cooldown` within COLLECTION_REFRESH_COOLDOWN_MS of the last one's end on this instance; counts against METADATA_FETCH_REFRESH_RATE_LIMIT. No body.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @description none: this instance has not refreshed the collection (or forgot it) */
              state: "none" | "running" | "done" | "failed";
              /** @description ISO 8601; null for none */
              startedAt: string | null;
              /** @description ISO 8601; null while it runs */
              finishedAt: string | null;
              /** @description Tokens read again so far */
              read: string;
              /** @description Of those, reads that stored an answer (a document, or why there is none) */
              stored: string;
              /** @description true: it joined the refresh under way */
              joined: boolean;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `refresh_cooldown`: this collection was refreshed too recently on this instance (Retry-After); `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "refresh_cooldown" | "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `refresh_busy`: this instance runs as many collection refreshes as it takes (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable" | "refresh_busy";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/collection/{network}/{contract}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A collection: standard, name, symbol, supply, holders, indexed blocks, deployment, contract-level metadata
     * @description What the index holds of a contract (its summary, kept as the index writes: one row) beside what the contract answers (name(), symbol(), totalSupply() at chainBlock, cached per block), where it was deployed (found once, stored) and its ERC-7572 contract-level metadata (contractURI(), through the token metadata fetcher and cache, read again after a ContractURIUpdated log). 404 `not_found` for a contract the index holds no transfer of.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            [name: string]: unknown;
          };
          content: {
            /**
             * @example {
             *       "contract": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
             *       "standard": "erc721",
             *       "name": "Alice",
             *       "symbol": "ALICE",
             *       "totalSupply": 10,
             *       "indexedSupply": 10,
             *       "holders": 1,
             *       "transfers": 10,
             *       "firstIndexedBlock": 2,
             *       "latestIndexedBlock": 2,
             *       "indexComplete": true,
             *       "deployment": {
             *         "block": 1,
             *         "deployer": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
             *         "tx": "0x…"
             *       },
             *       "metadata": {
             *         "contractURI": null,
             *         "error": "contractURI() reverted"
             *       },
             *       "spam": {
             *         "flag": false,
             *         "reasons": []
             *       },
             *       "chainBlock": 42
             *     }
             */
            "application/json": {
              /** @description EIP-55 checksummed address */
              contract: string;
              /** @description The standard the index reads it as */
              standard: "erc721" | "erc1155";
              /** @description name() as the contract answers, cleaned and cut to 200 characters; absent when it has none */
              name?: string;
              /** @description symbol() as the contract answers, cleaned and cut to 50 characters; absent when it has none */
              symbol?: string;
              /** @description totalSupply() as the contract answers at chainBlock (all digits); absent when it has none */
              totalSupply?: string;
              /** @description ERC-721 tokens (ERC-1155 units) the index holds: minted less burned */
              indexedSupply: string;
              /** @description Owners holding at least one token (as GET /holders/…/count) */
              holders: string;
              /** @description Transfers the index holds (ERC-1155: one per id moved) */
              transfers: string;
              /** @description Block number */
              firstIndexedBlock: string;
              /** @description Block number */
              latestIndexedBlock: string;
              /** @description false when a ConsecutiveTransfer range was not expanded */
              indexComplete: boolean;
              /** @description Found by bisection of eth_getCode, then the block's transactions (docs/reference/collections.md#deployment) */
              deployment: {
                /** @description The first block whose state holds the contract's code */
                block: string | null;
                /** @description The account whose transaction created it; null when a contract did */
                deployer: string | null;
                /** @description That transaction */
                tx: string | null;
                /** @description Why block or deployer is null */
                reason?: string;
              };
              /** @description Contract-level metadata (ERC-7572) from contractURI(), through the token metadata fetcher and cache */
              metadata: {
                /** @description What contractURI() answered; null when it reverted or was not read */
                contractURI: string | null;
                /** @description The document's name, cleaned (invisible characters as U+FFFD) and cut to 200 characters */
                name?: string;
                /** @description The document's description, cleaned, cut to 2,000 characters */
                description?: string;
                /** @description image: a URL a browser can load (gateways applied) */
                image?: string;
                /** @description banner_image: a URL a browser can load (gateways applied) */
                bannerImage?: string;
                /** @description featured_image: a URL a browser can load (gateways applied) */
                featuredImage?: string;
                /** @description external_link, when it is an http(s) URL */
                externalLink?: string;
                /** @description collaborators that are addresses (at most 50), checksummed */
                collaborators?: string[];
                /** @description Why there are no fields: contractURI() reverted, the document failed, or "pending" (being read; ask again) */
                error: string | null;
                /**
                 * @description Left out: the answer's metadata reached METADATA_ANSWERS_MAX_BYTES
                 * @enum {boolean}
                 */
                omitted?: true;
              };
              /** @description Computed when the index changes, never per read: stable between reads */
              spam: {
                /** @description true: leave it out of a wallet's first screen (`?spam=exclude` does) */
                flag: boolean;
                /** @description The rules that fired (LureText, DishonestTotalSupply, MassAirdrop, MintedToOthers, NeverMoved), the operator's word (OperatorMarkedSpam, OperatorMarkedNotSpam) first, or Unclassified (docs/reference/collections.md#spam) */
                reasons: string[];
              };
              /** @description The block name, symbol and totalSupply were read at */
              chainBlock: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/block/{network}/latest": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Latest block number (at most one block behind the node)
     * @description The head of the network as its node reports it, cached for a block time: at most one block behind the node. Counts against the data routes' rate limit.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Block number */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": string;
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/block/{network}/time/{num}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Timestamp of a block (unix seconds); 404 beyond the head
     * @description The block's timestamp from the node. Final blocks (FINALITY_DEPTH below the head) are cached for good, others asked again, since a reorg may change them. 404 `not_found` for a block beyond the head.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Block number (decimal)
           * @example 1
           */
          num: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Unix seconds */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": string;
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_block_number`: num is not a decimal block number */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_block_number";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/gas/{network}/suggested-price": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Suggested gas price in wei (eth_gasPrice, once per block)
     * @description The node's eth_gasPrice, asked once per network and block however many clients ask: a JSON number of wei with all its digits. Counts against the data routes' rate limit.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Wei */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": string;
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/inventory/{network}/{owner}/{assetContract}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tokens of one contract held by an owner, from the index
     * @description The owner's tokens of one contract in id order: ERC-721 items, or ERC-1155 ones with their balance. Read from our own index, not the node: `X-Indexed-Block` says how fresh (the block the index is complete to), `X-Index-Complete: false` that the contract has ranges the index did not expand. Pages with `limit` (default 100) and `cursor`; the next page is in `Link: <...>; rel="next"` (absent on the last page), and the body stays a plain array. With metadata=true each item also carries its token metadata (as GET /token gives it), read through the shared cache; past METADATA_ANSWERS_CONCURRENCY such answers at once, 503 `metadata_busy`.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Items per page (1–1000)
           * @example 10
           */
          limit?: number;
          /**
           * @description From the Link rel="next" of the previous page (opaque; the example starts at the first item)
           * @example WyIwIl0
           */
          cursor?: string;
          /**
           * @description exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include
           * @example exclude
           */
          spam?: "include" | "exclude";
          /**
           * @description Add tokenURI, metadata, image, metadataError and metadataUpdatedAt to each item (as GET /token gives them). All items' metadata together stays within METADATA_ANSWERS_MAX_BYTES: the items after that carry metadataOmitted (counted in X-Metadata-Omitted).
           * @example true
           */
          metadata?: boolean;
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Owner: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x2222222222222222222222222222222222222222
           */
          owner: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          assetContract: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description `<...>; rel="next"` when there are more items */
            Link?: string;
            /** @description With metadata=true: how many items carry metadataOmitted (their metadata did not fit in METADATA_ANSWERS_MAX_BYTES) */
            "X-Metadata-Omitted"?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @description EIP-55 checksummed address */
              contract: string;
              /** @description Token id: a JSON number with all its digits (ids above 2^53 are not rounded) */
              id: string;
              /** @description EIP-55 checksummed address */
              owner: string;
              /** @description ERC-1155 only: how many of this id the owner holds (all digits) */
              balance?: string;
              /**
               * @description Present (true) when this item's metadata was left out because the answer's metadata reached METADATA_ANSWERS_MAX_BYTES; tokenURI, metadata, image and metadataUpdatedAt are then null and metadataError says so. Ask for fewer items or for the token alone.
               * @enum {boolean}
               */
              metadataOmitted?: true;
            }[];
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_cursor`: cursor is not one this service gave for this list */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_cursor";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `metadata_busy`: this instance builds as many answers with token metadata as it takes (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable" | "metadata_busy";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/inventory/{network}/{owner}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Contracts an owner holds tokens of, each once, from the index
     * @description The contracts (ERC-721 and ERC-1155) the owner holds at least one token of, in address order. Read from our own index, not the node: `X-Indexed-Block` says how fresh (the block the index is complete to), `X-Index-Complete: false` that the contract has ranges the index did not expand. Pages with `limit` (default 100) and `cursor`; the next page is in `Link: <...>; rel="next"` (absent on the last page), and the body stays a plain array. With details=true each is a collection as GET /collection gives it (docs/reference/collections.md), the page's summaries, deployments and cached documents read in one statement and name, symbol and totalSupply in multicalls; a deployment not found before has a reason instead.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Items per page (1–1000)
           * @example 10
           */
          limit?: number;
          /**
           * @description From the Link rel="next" of the previous page (opaque; the example starts at the first item)
           * @example WyIweDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAiXQ
           */
          cursor?: string;
          /**
           * @description exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include
           * @example exclude
           */
          spam?: "include" | "exclude";
          /**
           * @description Each contract as a collection (GET /collection) instead of its address
           * @example true
           */
          details?: boolean;
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Owner: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x2222222222222222222222222222222222222222
           */
          owner: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description `<...>; rel="next"` when there are more items */
            Link?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json":
              | string[]
              | {
                  /** @description EIP-55 checksummed address */
                  contract: string;
                  /** @description The standard the index reads it as */
                  standard: "erc721" | "erc1155";
                  /** @description name() as the contract answers, cleaned and cut to 200 characters; absent when it has none */
                  name?: string;
                  /** @description symbol() as the contract answers, cleaned and cut to 50 characters; absent when it has none */
                  symbol?: string;
                  /** @description totalSupply() as the contract answers at chainBlock (all digits); absent when it has none */
                  totalSupply?: string;
                  /** @description ERC-721 tokens (ERC-1155 units) the index holds: minted less burned */
                  indexedSupply: string;
                  /** @description Owners holding at least one token (as GET /holders/…/count) */
                  holders: string;
                  /** @description Transfers the index holds (ERC-1155: one per id moved) */
                  transfers: string;
                  /** @description Block number */
                  firstIndexedBlock: string;
                  /** @description Block number */
                  latestIndexedBlock: string;
                  /** @description false when a ConsecutiveTransfer range was not expanded */
                  indexComplete: boolean;
                  /** @description Found by bisection of eth_getCode, then the block's transactions (docs/reference/collections.md#deployment) */
                  deployment: {
                    /** @description The first block whose state holds the contract's code */
                    block: string | null;
                    /** @description The account whose transaction created it; null when a contract did */
                    deployer: string | null;
                    /** @description That transaction */
                    tx: string | null;
                    /** @description Why block or deployer is null */
                    reason?: string;
                  };
                  /** @description Contract-level metadata (ERC-7572) from contractURI(), through the token metadata fetcher and cache */
                  metadata: {
                    /** @description What contractURI() answered; null when it reverted or was not read */
                    contractURI: string | null;
                    /** @description The document's name, cleaned (invisible characters as U+FFFD) and cut to 200 characters */
                    name?: string;
                    /** @description The document's description, cleaned, cut to 2,000 characters */
                    description?: string;
                    /** @description image: a URL a browser can load (gateways applied) */
                    image?: string;
                    /** @description banner_image: a URL a browser can load (gateways applied) */
                    bannerImage?: string;
                    /** @description featured_image: a URL a browser can load (gateways applied) */
                    featuredImage?: string;
                    /** @description external_link, when it is an http(s) URL */
                    externalLink?: string;
                    /** @description collaborators that are addresses (at most 50), checksummed */
                    collaborators?: string[];
                    /** @description Why there are no fields: contractURI() reverted, the document failed, or "pending" (being read; ask again) */
                    error: string | null;
                    /**
                     * @description Left out: the answer's metadata reached METADATA_ANSWERS_MAX_BYTES
                     * @enum {boolean}
                     */
                    omitted?: true;
                  };
                  /** @description Computed when the index changes, never per read: stable between reads */
                  spam: {
                    /** @description true: leave it out of a wallet's first screen (`?spam=exclude` does) */
                    flag: boolean;
                    /** @description The rules that fired (LureText, DishonestTotalSupply, MassAirdrop, MintedToOthers, NeverMoved), the operator's word (OperatorMarkedSpam, OperatorMarkedNotSpam) first, or Unclassified (docs/reference/collections.md#spam) */
                    reasons: string[];
                  };
                  /** @description The block name, symbol and totalSupply were read at */
                  chainBlock: string;
                }[];
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_cursor`: cursor is not one this service gave for this list */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_cursor";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/holders/{network}/{contract}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Owners of a contract's tokens (or, with id, of one token) with what each holds, from the index
     * @description Each owner once, in address order, with `count`: the ERC-721 tokens it holds or the ERC-1155 units over all ids; with id, that token's holders (ERC-1155: each with its balance). Read from our own index, not the node: `X-Indexed-Block` says how fresh (the block the index is complete to), `X-Index-Complete: false` that the contract has ranges the index did not expand. Pages with `limit` (default 100) and `cursor`; the next page is in `Link: <...>; rel="next"` (absent on the last page), and the body stays a plain array.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Items per page (1–1000)
           * @example 10
           */
          limit?: number;
          /**
           * @description From the Link rel="next" of the previous page (opaque; the example starts at the first item)
           * @example WyIweDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAiXQ
           */
          cursor?: string;
          /**
           * @description Only this token id's holders (ERC-1155: with their balances)
           * @example 1
           */
          id?: string;
          /**
           * @description As at the end of this block (decimal), from the transfers the index holds: from the contract's first indexed block to X-Indexed-Block (docs/reference/collections.md#holders-at-a-block)
           * @example 1
           */
          block?: string;
          /**
           * @description exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include
           * @example exclude
           */
          spam?: "include" | "exclude";
          /**
           * @description With block: `ndjson` or `csv` streams every holder (an export) instead of a page; the default is Accept's choice, else a JSON page
           * @example csv
           */
          format?: "json" | "ndjson" | "csv";
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description `<...>; rel="next"` when there are more items */
            Link?: string;
            /** @description With block: the block the holders are as at */
            "X-Snapshot-Block"?: string;
            [name: string]: unknown;
          };
          content: {
            /**
             * @example [
             *       {
             *         "owner": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
             *         "count": 10
             *       }
             *     ]
             */
            "application/json": {
              /** @description EIP-55 checksummed address */
              owner: string;
              /** @description What the owner holds: ERC-721 tokens, or ERC-1155 units (with `id`: its balance of that id). A JSON number with all its digits */
              count: string;
            }[];
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_block_number`: num is not a decimal block number; `block_out_of_range`: block is before the contract's first indexed block or past the block the index is complete to; `snapshot_too_large`: the contract has more indexed transfers than HOLDERS_SNAPSHOT_MAX_TRANSFERS: its holders at a block cost more than that bound; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256; `invalid_cursor`: cursor is not one this service gave for this list */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                | "invalid_request"
                | "unknown_network"
                | "invalid_block_number"
                | "block_out_of_range"
                | "snapshot_too_large"
                | "invalid_address"
                | "invalid_token_id"
                | "invalid_cursor";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/holders/{network}/{contract}/count": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * How many owners hold tokens of a contract, from the index (kept as it writes: one row read)
     * @description `{holders: n}`, 0 for a contract nobody holds: one row the indexer keeps as it writes, however large the collection. `X-Indexed-Block` says how fresh.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description As at the end of this block (decimal), from the transfers the index holds: from the contract's first indexed block to X-Indexed-Block (docs/reference/collections.md#holders-at-a-block)
           * @example 1
           */
          block?: string;
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description With block: the block the holders are as at */
            "X-Snapshot-Block"?: string;
            [name: string]: unknown;
          };
          content: {
            /**
             * @example {
             *       "holders": 1234
             *     }
             */
            "application/json": {
              /** @description Owners holding at least one token (ERC-1155: one unit) */
              holders: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_block_number`: num is not a decimal block number; `block_out_of_range`: block is before the contract's first indexed block or past the block the index is complete to; `snapshot_too_large`: the contract has more indexed transfers than HOLDERS_SNAPSHOT_MAX_TRANSFERS: its holders at a block cost more than that bound; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                | "invalid_request"
                | "unknown_network"
                | "invalid_block_number"
                | "block_out_of_range"
                | "snapshot_too_large"
                | "invalid_address";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/transfers/{network}/owner/{owner}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Transfers from or to an address, newest first, from the index
     * @description Transfers the address sent or received (one to itself is listed once). ERC-721 and ERC-1155 transfers in one list, newest first (block, log index, batch index); transfers a reorg undid are gone with it. Read from our own index, not the node: `X-Indexed-Block` says how fresh (the block the index is complete to), `X-Index-Complete: false` that the contract has ranges the index did not expand. Pages with `limit` (default 100) and `cursor`; the next page is in `Link: <...>; rel="next"` (absent on the last page), and the body stays a plain array.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Items per page (1–1000)
           * @example 10
           */
          limit?: number;
          /**
           * @description From the Link rel="next" of the previous page (opaque; the example starts at the first item)
           * @example WyI5MjIzMzcyMDM2ODU0Nzc1ODA3IiwiMjE0NzQ4MzY0NyIsIjIxNDc0ODM2NDciXQ
           */
          cursor?: string;
          /**
           * @description exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include
           * @example exclude
           */
          spam?: "include" | "exclude";
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Sender or receiver: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x2222222222222222222222222222222222222222
           */
          owner: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description `<...>; rel="next"` when there are more items */
            Link?: string;
            [name: string]: unknown;
          };
          content: {
            /**
             * @example [
             *       {
             *         "block": 42,
             *         "time": 1732351200,
             *         "tx": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
             *         "logIndex": 0,
             *         "from": "0x0000000000000000000000000000000000000000",
             *         "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
             *         "contract": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
             *         "id": 1
             *       }
             *     ]
             */
            "application/json": {
              /** @description Block number */
              block: string;
              /** @description Unix time of the block (null for transfers indexed before times were kept) */
              time: number | null;
              /** @description Transaction hash */
              tx: string;
              /** @description Position of the log in its block */
              logIndex: number;
              /** @description ERC-1155 only: position of the id in a TransferBatch (0 for TransferSingle) */
              batchIndex?: number;
              /** @description EIP-55 checksummed address */
              from: string;
              /** @description EIP-55 checksummed address */
              to: string;
              /** @description EIP-55 checksummed address */
              contract: string;
              /** @description Token id: a JSON number with all its digits */
              id: string;
              /** @description ERC-1155 only: how many units moved (all digits) */
              value?: string;
            }[];
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256; `invalid_cursor`: cursor is not one this service gave for this list */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id" | "invalid_cursor";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/transfers/{network}/{contract}/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Transfers of one token, newest first, from the index
     * @description The transfers of one token, its mint included. ERC-721 and ERC-1155 transfers in one list, newest first (block, log index, batch index); transfers a reorg undid are gone with it. Read from our own index, not the node: `X-Indexed-Block` says how fresh (the block the index is complete to), `X-Index-Complete: false` that the contract has ranges the index did not expand. Pages with `limit` (default 100) and `cursor`; the next page is in `Link: <...>; rel="next"` (absent on the last page), and the body stays a plain array.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Items per page (1–1000)
           * @example 10
           */
          limit?: number;
          /**
           * @description From the Link rel="next" of the previous page (opaque; the example starts at the first item)
           * @example WyI5MjIzMzcyMDM2ODU0Nzc1ODA3IiwiMjE0NzQ4MzY0NyIsIjIxNDc0ODM2NDciXQ
           */
          cursor?: string;
          /**
           * @description exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include
           * @example exclude
           */
          spam?: "include" | "exclude";
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 or ERC-1155 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description The block the index is complete to */
            "X-Indexed-Block"?: string;
            /** @description "false" when the contract emitted a ConsecutiveTransfer range the index did not expand (docs/reference/indexer.md) */
            "X-Index-Complete"?: string;
            /** @description `<...>; rel="next"` when there are more items */
            Link?: string;
            [name: string]: unknown;
          };
          content: {
            /**
             * @example [
             *       {
             *         "block": 42,
             *         "time": 1732351200,
             *         "tx": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
             *         "logIndex": 0,
             *         "from": "0x0000000000000000000000000000000000000000",
             *         "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
             *         "contract": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
             *         "id": 1
             *       }
             *     ]
             */
            "application/json": {
              /** @description Block number */
              block: string;
              /** @description Unix time of the block (null for transfers indexed before times were kept) */
              time: number | null;
              /** @description Transaction hash */
              tx: string;
              /** @description Position of the log in its block */
              logIndex: number;
              /** @description ERC-1155 only: position of the id in a TransferBatch (0 for TransferSingle) */
              batchIndex?: number;
              /** @description EIP-55 checksummed address */
              from: string;
              /** @description EIP-55 checksummed address */
              to: string;
              /** @description EIP-55 checksummed address */
              contract: string;
              /** @description Token id: a JSON number with all its digits */
              id: string;
              /** @description ERC-1155 only: how many units moved (all digits) */
              value?: string;
            }[];
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256; `invalid_cursor`: cursor is not one this service gave for this list */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id" | "invalid_cursor";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `not_indexed`: the network's index has not started yet (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "not_indexed" | "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/approval/{network}/{assetContract}/{owner}/{operator}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Whether operator may move all of owner's tokens (isApprovedForAll)
     * @description isApprovedForAll(owner, operator) by eth_call, at a block no older than the index's, cached per block. 400 `not_erc721` for an address without code or a contract that does not answer it.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          assetContract: string;
          /**
           * @description Owner: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x2222222222222222222222222222222222222222
           */
          owner: string;
          /**
           * @description Operator: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x4444444444444444444444444444444444444444
           */
          operator: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": boolean;
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `not_erc721`: the contract has no code, or does not answer as an ERC-721 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "not_erc721";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited" | "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/{network}/{assetContract}/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Owner of a token (ownerOf); 404 when the token does not exist
     * @description ownerOf(id) by eth_call, at a block no older than the index's, cached per block: a JSON string, the checksummed owner. 404 `not_found` for a token that does not exist (or a path that names no network: this route takes any three segments); 400 `not_erc721` for an address without code or a contract that is not ERC-721.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description ERC-721 contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          assetContract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description EIP-55 checksummed address */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": string;
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256; `not_erc721`: the contract has no code, or does not answer as an ERC-721 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id" | "not_erc721";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After); `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited" | "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/metadata/{network}/{contract}/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Current metadata of an NFT, by issuer
     * @description The current statement of each issuer about the token: {issuer: metadata}. Reading needs no node. With iss, that issuer's statement alone: in json format the metadata object itself (what a tokenURI can point at). format=raw gives per issuer the signed record (iss, sig, metadata, text, binding, signer, time, posted_at, data). Without iss, at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers: those named in issuers first, then the most recently posted; X-Signed-Omitted counts the others. 404 `not_found` when nothing is stored.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Comma-separated issuers whose statements the answer carries first (at most SIGNED_METADATA_ANSWER_MAX_ISSUERS); the answer is filled up with the most recently posted ones
           * @example
           */
          issuers?: string;
          /**
           * @description Only this issuer's statement (the metadata object itself in json format)
           * @example 0x3333333333333333333333333333333333333333
           */
          iss?: string;
          /**
           * @description json (default) or raw
           * @example json
           */
          format?: "json" | "raw";
          /**
           * @description Same as format (the predecessor's spelling); when both are given they must agree
           * @example json
           */
          Format?: "json" | "raw";
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description When the target has more current statements than SIGNED_METADATA_ANSWER_MAX_ISSUERS: how many the answer left out (it carries the issuers named in issuers first, then the most recent) */
            "X-Signed-Omitted"?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json":
              | {
                  [key: string]: {
                    [key: string]: unknown;
                  };
                }
              | {
                  [key: string]: {
                    /** @description The issuer's address, EIP-55 */
                    iss: string;
                    /** @description The issuer's EIP-191 signature of text */
                    sig: string;
                    /** @description The standard Base64 of the metadata's UTF-8 JSON, as posted */
                    metadata: string;
                    /** @description The exact text the signature is over */
                    text: string;
                    /** @description target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone */
                    binding: "target" | "none";
                    /** @description How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492) */
                    signer: "eoa" | "erc1271" | "erc6492";
                    /** @description Unix seconds of the post */
                    time: number;
                    /** @description The post's time, ISO 8601 */
                    posted_at: string;
                    /** @description A metadata object as its issuer signed it (key order and the digits of numbers kept) */
                    data: {
                      [key: string]: unknown;
                    };
                  };
                }
              | {
                  [key: string]: unknown;
                }
              | {
                  /** @description The issuer's address, EIP-55 */
                  iss: string;
                  /** @description The issuer's EIP-191 signature of text */
                  sig: string;
                  /** @description The standard Base64 of the metadata's UTF-8 JSON, as posted */
                  metadata: string;
                  /** @description The exact text the signature is over */
                  text: string;
                  /** @description target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone */
                  binding: "target" | "none";
                  /** @description How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492) */
                  signer: "eoa" | "erc1271" | "erc6492";
                  /** @description Unix seconds of the post */
                  time: number;
                  /** @description The post's time, ISO 8601 */
                  posted_at: string;
                  /** @description A metadata object as its issuer signed it (key order and the digits of numbers kept) */
                  data: {
                    [key: string]: unknown;
                  };
                };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Post an issuer's metadata of an NFT
     * @description The body is {iss, sig, metadata} (also wrapped as {data: {...}}): metadata the standard Base64 of a UTF-8 JSON object, sig iss's EIP-191 signature of the text naming this target (docs/reference/metadata.md; `npm run sign-metadata` makes one). Stored with its history; the issuer's current statement is replaced. Answers the JSON string "ok". Counts against METADATA_POST_RATE_LIMIT. The issuer may be an EOA or a contract wallet (EIP-1271/6492), whose check needs the network's node (503 `network_unavailable` without one).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      /** @description Also accepted wrapped as {"data": {...}} */
      requestBody: {
        content: {
          /**
           * @example {
           *       "iss": "0x3333333333333333333333333333333333333333",
           *       "sig": "0x1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111",
           *       "metadata": "eyJuYW1lIjoiRXhhbXBsZSJ9"
           *     }
           */
          "application/json": {
            /** @description Issuer address */
            iss?: unknown;
            /** @description EIP-191 signature by iss of the signed text */
            sig?: unknown;
            /** @description Base64 of the UTF-8 JSON object */
            metadata?: unknown;
            /** @description The same three fields, wrapped */
            data?: unknown;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": "ok";
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `malformed_json`: the body is not JSON; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_metadata`: metadata is not standard Base64 of a JSON object the service serves; `malformed_signature`: the signature is not hex bytes of a signature (wrong length, high s) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                "invalid_request" | "malformed_json" | "unknown_network" | "invalid_address" | "invalid_metadata" | "malformed_signature";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_signature`: the signature does not prove the address (issuer) signed this text; `binding_required`: the signature covers the metadata alone, and this service requires it to name the target */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_signature" | "binding_required";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `replayed`: this body was current before and has been superseded: sign new content */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "replayed";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `payload_too_large`: the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "payload_too_large";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `unsupported_media_type`: the body is not application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "unsupported_media_type";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After); `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full" | "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/metadata/ethereum/{network}/{contract}/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Current metadata of an NFT, by issuer
     * @description The current statement of each issuer about the token: {issuer: metadata}. Reading needs no node. With iss, that issuer's statement alone: in json format the metadata object itself (what a tokenURI can point at). format=raw gives per issuer the signed record (iss, sig, metadata, text, binding, signer, time, posted_at, data). Without iss, at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers: those named in issuers first, then the most recently posted; X-Signed-Omitted counts the others. 404 `not_found` when nothing is stored.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Comma-separated issuers whose statements the answer carries first (at most SIGNED_METADATA_ANSWER_MAX_ISSUERS); the answer is filled up with the most recently posted ones
           * @example
           */
          issuers?: string;
          /**
           * @description Only this issuer's statement (the metadata object itself in json format)
           * @example 0x3333333333333333333333333333333333333333
           */
          iss?: string;
          /**
           * @description json (default) or raw
           * @example json
           */
          format?: "json" | "raw";
          /**
           * @description Same as format (the predecessor's spelling); when both are given they must agree
           * @example json
           */
          Format?: "json" | "raw";
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description When the target has more current statements than SIGNED_METADATA_ANSWER_MAX_ISSUERS: how many the answer left out (it carries the issuers named in issuers first, then the most recent) */
            "X-Signed-Omitted"?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json":
              | {
                  [key: string]: {
                    [key: string]: unknown;
                  };
                }
              | {
                  [key: string]: {
                    /** @description The issuer's address, EIP-55 */
                    iss: string;
                    /** @description The issuer's EIP-191 signature of text */
                    sig: string;
                    /** @description The standard Base64 of the metadata's UTF-8 JSON, as posted */
                    metadata: string;
                    /** @description The exact text the signature is over */
                    text: string;
                    /** @description target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone */
                    binding: "target" | "none";
                    /** @description How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492) */
                    signer: "eoa" | "erc1271" | "erc6492";
                    /** @description Unix seconds of the post */
                    time: number;
                    /** @description The post's time, ISO 8601 */
                    posted_at: string;
                    /** @description A metadata object as its issuer signed it (key order and the digits of numbers kept) */
                    data: {
                      [key: string]: unknown;
                    };
                  };
                }
              | {
                  [key: string]: unknown;
                }
              | {
                  /** @description The issuer's address, EIP-55 */
                  iss: string;
                  /** @description The issuer's EIP-191 signature of text */
                  sig: string;
                  /** @description The standard Base64 of the metadata's UTF-8 JSON, as posted */
                  metadata: string;
                  /** @description The exact text the signature is over */
                  text: string;
                  /** @description target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone */
                  binding: "target" | "none";
                  /** @description How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492) */
                  signer: "eoa" | "erc1271" | "erc6492";
                  /** @description Unix seconds of the post */
                  time: number;
                  /** @description The post's time, ISO 8601 */
                  posted_at: string;
                  /** @description A metadata object as its issuer signed it (key order and the digits of numbers kept) */
                  data: {
                    [key: string]: unknown;
                  };
                };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Post an issuer's metadata of an NFT
     * @description The body is {iss, sig, metadata} (also wrapped as {data: {...}}): metadata the standard Base64 of a UTF-8 JSON object, sig iss's EIP-191 signature of the text naming this target (docs/reference/metadata.md; `npm run sign-metadata` makes one). Stored with its history; the issuer's current statement is replaced. Answers the JSON string "ok". Counts against METADATA_POST_RATE_LIMIT. The issuer may be an EOA or a contract wallet (EIP-1271/6492), whose check needs the network's node (503 `network_unavailable` without one).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x1111111111111111111111111111111111111111
           */
          contract: string;
          /**
           * @description Token id (decimal uint256)
           * @example 1
           */
          id: string;
        };
        cookie?: never;
      };
      /** @description Also accepted wrapped as {"data": {...}} */
      requestBody: {
        content: {
          /**
           * @example {
           *       "iss": "0x3333333333333333333333333333333333333333",
           *       "sig": "0x1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111",
           *       "metadata": "eyJuYW1lIjoiRXhhbXBsZSJ9"
           *     }
           */
          "application/json": {
            /** @description Issuer address */
            iss?: unknown;
            /** @description EIP-191 signature by iss of the signed text */
            sig?: unknown;
            /** @description Base64 of the UTF-8 JSON object */
            metadata?: unknown;
            /** @description The same three fields, wrapped */
            data?: unknown;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": "ok";
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `malformed_json`: the body is not JSON; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_metadata`: metadata is not standard Base64 of a JSON object the service serves; `malformed_signature`: the signature is not hex bytes of a signature (wrong length, high s) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                "invalid_request" | "malformed_json" | "unknown_network" | "invalid_address" | "invalid_metadata" | "malformed_signature";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_signature`: the signature does not prove the address (issuer) signed this text; `binding_required`: the signature covers the metadata alone, and this service requires it to name the target */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_signature" | "binding_required";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `replayed`: this body was current before and has been superseded: sign new content */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "replayed";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `payload_too_large`: the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "payload_too_large";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `unsupported_media_type`: the body is not application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "unsupported_media_type";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After); `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full" | "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/metadata/ethereum/{network}/{account}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Current metadata of an account, by issuer
     * @description The current statement of each issuer about the account: {issuer: metadata}. Reading needs no node. With iss, that issuer's statement alone: in json format the metadata object itself (what a tokenURI can point at). format=raw gives per issuer the signed record (iss, sig, metadata, text, binding, signer, time, posted_at, data). Without iss, at most SIGNED_METADATA_ANSWER_MAX_ISSUERS issuers: those named in issuers first, then the most recently posted; X-Signed-Omitted counts the others. 404 `not_found` when nothing is stored.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Comma-separated issuers whose statements the answer carries first (at most SIGNED_METADATA_ANSWER_MAX_ISSUERS); the answer is filled up with the most recently posted ones
           * @example
           */
          issuers?: string;
          /**
           * @description Only this issuer's statement (the metadata object itself in json format)
           * @example 0x3333333333333333333333333333333333333333
           */
          iss?: string;
          /**
           * @description json (default) or raw
           * @example json
           */
          format?: "json" | "raw";
          /**
           * @description Same as format (the predecessor's spelling); when both are given they must agree
           * @example json
           */
          Format?: "json" | "raw";
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Account: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x2222222222222222222222222222222222222222
           */
          account: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            /** @description When the target has more current statements than SIGNED_METADATA_ANSWER_MAX_ISSUERS: how many the answer left out (it carries the issuers named in issuers first, then the most recent) */
            "X-Signed-Omitted"?: string;
            [name: string]: unknown;
          };
          content: {
            "application/json":
              | {
                  [key: string]: {
                    [key: string]: unknown;
                  };
                }
              | {
                  [key: string]: {
                    /** @description The issuer's address, EIP-55 */
                    iss: string;
                    /** @description The issuer's EIP-191 signature of text */
                    sig: string;
                    /** @description The standard Base64 of the metadata's UTF-8 JSON, as posted */
                    metadata: string;
                    /** @description The exact text the signature is over */
                    text: string;
                    /** @description target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone */
                    binding: "target" | "none";
                    /** @description How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492) */
                    signer: "eoa" | "erc1271" | "erc6492";
                    /** @description Unix seconds of the post */
                    time: number;
                    /** @description The post's time, ISO 8601 */
                    posted_at: string;
                    /** @description A metadata object as its issuer signed it (key order and the digits of numbers kept) */
                    data: {
                      [key: string]: unknown;
                    };
                  };
                }
              | {
                  [key: string]: unknown;
                }
              | {
                  /** @description The issuer's address, EIP-55 */
                  iss: string;
                  /** @description The issuer's EIP-191 signature of text */
                  sig: string;
                  /** @description The standard Base64 of the metadata's UTF-8 JSON, as posted */
                  metadata: string;
                  /** @description The exact text the signature is over */
                  text: string;
                  /** @description target: the text names this NFT or account; none: the predecessor's signature of the Base64 alone */
                  binding: "target" | "none";
                  /** @description How the signature was checked: an EOA's key, a contract wallet (EIP-1271), one not yet deployed (EIP-6492) */
                  signer: "eoa" | "erc1271" | "erc6492";
                  /** @description Unix seconds of the post */
                  time: number;
                  /** @description The post's time, ISO 8601 */
                  posted_at: string;
                  /** @description A metadata object as its issuer signed it (key order and the digits of numbers kept) */
                  data: {
                    [key: string]: unknown;
                  };
                };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Post an issuer's metadata of an account (issuer must be an EOA)
     * @description The body is {iss, sig, metadata} (also wrapped as {data: {...}}): metadata the standard Base64 of a UTF-8 JSON object, sig iss's EIP-191 signature of the text naming this target (docs/reference/metadata.md; `npm run sign-metadata` makes one). Stored with its history; the issuer's current statement is replaced. Answers the JSON string "ok". Counts against METADATA_POST_RATE_LIMIT. Only an externally owned account may issue account metadata (403 `eoa_required`).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description Account: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x2222222222222222222222222222222222222222
           */
          account: string;
        };
        cookie?: never;
      };
      /** @description Also accepted wrapped as {"data": {...}} */
      requestBody: {
        content: {
          /**
           * @example {
           *       "iss": "0x3333333333333333333333333333333333333333",
           *       "sig": "0x1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111",
           *       "metadata": "eyJuYW1lIjoiRXhhbXBsZSJ9"
           *     }
           */
          "application/json": {
            /** @description Issuer address */
            iss?: unknown;
            /** @description EIP-191 signature by iss of the signed text */
            sig?: unknown;
            /** @description Base64 of the UTF-8 JSON object */
            metadata?: unknown;
            /** @description The same three fields, wrapped */
            data?: unknown;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": "ok";
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `malformed_json`: the body is not JSON; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_metadata`: metadata is not standard Base64 of a JSON object the service serves; `malformed_signature`: the signature is not hex bytes of a signature (wrong length, high s) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                "invalid_request" | "malformed_json" | "unknown_network" | "invalid_address" | "invalid_metadata" | "malformed_signature";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_signature`: the signature does not prove the address (issuer) signed this text; `binding_required`: the signature covers the metadata alone, and this service requires it to name the target */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_signature" | "binding_required";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `eoa_required`: account metadata signed by a contract wallet: only an externally owned account may issue it */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "eoa_required";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `replayed`: this body was current before and has been superseded: sign new content */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "replayed";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `payload_too_large`: the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "payload_too_large";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `unsupported_media_type`: the body is not application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "unsupported_media_type";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/converter/{network}/{converter}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A converter's tokens, pause and reverse switches, and stock
     * @description Its Alice and Bob token contracts with their names, whether it is paused and converts back, and how many of each it holds: read from the chain at the latest block (cached per block). Any address answering the NFTConverter ABI can be read. 404 `not_found` when the address does not answer it. Counts against CONVERTER_RATE_LIMIT.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description NFTConverter contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x5555555555555555555555555555555555555555
           */
          converter: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            /**
             * @example {
             *       "network": "localhost",
             *       "converter": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
             *       "block": 12,
             *       "alice": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
             *       "bob": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
             *       "names": {
             *         "alice": "AliceNFT",
             *         "bob": "BobNFT"
             *       },
             *       "paused": false,
             *       "reverseConversionEnabled": true,
             *       "stock": {
             *         "alice": 0,
             *         "bob": 10
             *       }
             *     }
             */
            "application/json": {
              network: string;
              /** @description EIP-55 checksummed address */
              converter: string;
              /** @description Block number */
              block: string;
              /** @description EIP-55 checksummed address */
              alice: string;
              /** @description EIP-55 checksummed address */
              bob: string;
              names: {
                alice: string | null;
                bob: string | null;
              };
              paused: boolean;
              reverseConversionEnabled: boolean;
              /** @description How many Alice and Bob tokens the converter holds */
              stock: {
                /** @description Token id: a JSON number with all its digits (ids above 2^53 are not rounded) */
                alice: string;
                /** @description Token id: a JSON number with all its digits (ids above 2^53 are not rounded) */
                bob: string;
              };
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/converter/{network}/{converter}/pairs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Per token id: its counterpart, and whether it converts now (and why not)
     * @description Give aliceIds or bobIds (not both: 400 `invalid_request`): up to 100 comma-separated decimal ids. Answers in the order asked, read at the latest block (cached per block); `reason` says why an id does not convert now. Whether the caller holds a token is not checked here (see the inventory routes). 404 `not_found` when the address does not answer the NFTConverter ABI. Counts against CONVERTER_RATE_LIMIT.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Alice ids, e.g. 1,2,3
           * @example 1,2,11
           */
          aliceIds?: string;
          /**
           * @description Bob ids, e.g. 1,2,3 (the example leaves it empty: aliceIds is given)
           * @example
           */
          bobIds?: string;
        };
        header?: never;
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
          /**
           * @description NFTConverter contract: 0x + 40 hex digits (mixed case must pass EIP-55)
           * @example 0x5555555555555555555555555555555555555555
           */
          converter: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            /**
             * @example {
             *       "network": "localhost",
             *       "converter": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
             *       "block": 12,
             *       "side": "alice",
             *       "pairs": [
             *         {
             *           "id": 1,
             *           "counterpart": 1,
             *           "convertible": true,
             *           "reason": null
             *         },
             *         {
             *           "id": 11,
             *           "counterpart": null,
             *           "convertible": false,
             *           "reason": "not_paired"
             *         }
             *       ]
             *     }
             */
            "application/json": {
              network: string;
              /** @description EIP-55 checksummed address */
              converter: string;
              /** @description Block number */
              block: string;
              /** @description The side of the ids asked about */
              side: "alice" | "bob";
              pairs: {
                /** @description Token id: a JSON number with all its digits (ids above 2^53 are not rounded) */
                id: string;
                /** @description The paired id on the other side; null when not paired */
                counterpart: string | null;
                /** @description Whether its holder can convert it now */
                convertible: boolean;
                reason: ("not_paired" | "reverse_conversion_disabled" | "paused" | "out_of_stock") | null;
              }[];
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_token_id`: a token id is not a decimal uint256 */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address" | "invalid_token_id";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `not_found`: nothing to answer (the message says what) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_error`: the network's node failed (transport, HTTP, or a JSON-RPC error that is not a revert) */
        502: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `upstream_rate_limited`: the node's provider rate-limits this service (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "upstream_rate_limited";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `upstream_timeout`: the network's node did not answer in time */
        504: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "upstream_timeout";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/events/{network}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Live transfers (Server-Sent Events) as the indexer commits them; reorgs as `removed` events
     * @description A `text/event-stream`. Events: `transfer` and `removed` (data: a transfer as the history routes give it), `reset` (data: `{network}`; the network's index started over). Each has an `id`; reconnecting with `Last-Event-ID` (or `?lastEventId=`) resumes after it. Comment lines are sent as heartbeats. The stream never ends by itself (Swagger UI waits for its end: try it with `curl -N`). `?spam=exclude` leaves out the transfers and metadata changes of collections flagged as spam (a `removed` is sent all the same). Each stream counts as a request against the data routes' rate limit; past EVENTS_MAX_SUBSCRIBERS streams on an instance, 503 `too_many_subscribers`.
     */
    get: {
      parameters: {
        query?: {
          /**
           * @description Only transfers from or to this address
           * @example 0x2222222222222222222222222222222222222222
           */
          owner?: string;
          /**
           * @description Only transfers of this contract
           * @example 0x1111111111111111111111111111111111111111
           */
          contract?: string;
          /**
           * @description exclude: leave out what belongs to collections flagged as spam (docs/reference/collections.md#spam); default include
           * @example exclude
           */
          spam?: "include" | "exclude";
          /**
           * @description Resume after this event id (as the Last-Event-ID header)
           * @example 0
           */
          lastEventId?: string;
        };
        header?: {
          /**
           * @description Resume after this event id (what EventSource sends on reconnecting)
           * @example 0
           */
          "last-event-id"?: string;
        };
        path: {
          /**
           * @description Network name, e.g. mainnet, sepolia, matic-mainnet
           * @example mainnet
           */
          network: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The event stream */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            /**
             * @example id: 42
             *     event: transfer
             *     data: {"block":42,"time":1732351200,"tx":"0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060","logIndex":0,"from":"0x0000000000000000000000000000000000000000","to":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","contract":"0x5FbDB2315678afecb367f032d93F642f64180aa3","id":1}
             */
            "text/event-stream": string;
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "unknown_network" | "invalid_address";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `uri_too_long`: a path parameter is over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "uri_too_long";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `too_many_subscribers`: this instance streams to as many subscribers as it takes (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "network_unavailable" | "too_many_subscribers";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The client's subscriptions
     * @description Every subscription of the client whose token authenticates the request, oldest first, with where delivery stands (cursor, failures, disabled reason).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              subscriptions: {
                id: string;
                client_id: string | null;
                network: string;
                url: string;
                description: string;
                kinds: string[];
                contracts: string[];
                owners: string[];
                /** @description Blocks on top of a change's block before it is delivered (0: at once) */
                confirmations: string;
                /** @description include, or exclude: the changes of collections flagged as spam are left out */
                spam: string;
                enabled: boolean;
                disabled_reason: string | null;
                disabled_at: string | null;
                /** @description Every matching change up to this id was delivered */
                cursor: string;
                /** @description Failed attempts at the next change */
                attempts: string;
                failing_since: string | null;
                last_error: string | null;
                next_attempt_at: string;
                created_at: string;
              }[];
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Subscribe an endpoint to a network's events; the answer carries the signing secret, once
     * @description The endpoint passes the outbound guard (https, public addresses only, checked for every address its host resolves to). Deliveries start with the changes logged from now on (docs/reference/webhooks.md). Authenticated by the client's client_credentials token.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          /**
           * @example {
           *       "network": "mainnet",
           *       "url": "https://receiver.example/hook",
           *       "kinds": [
           *         "transfer",
           *         "removed"
           *       ],
           *       "owners": [
           *         "0x00000000000000000000000000000000000000aa"
           *       ]
           *     }
           */
          "application/json": {
            /** @description Network name, e.g. mainnet */
            network: string;
            /** @description The endpoint: https, public addresses only */
            url: string;
            /** @description Event kinds (transfer, removed, metadata, reset); default all */
            kinds?: string[];
            /** @description Only changes of these contracts (lower or EIP-55 case); any of them matches */
            contracts?: string[];
            /** @description Only transfers from or to these addresses (lower or EIP-55 case); any of them matches */
            owners?: string[];
            description?: string;
            /**
             * @description Blocks indexed on top of a change's block before it is delivered, 0 to 512 (else 400 invalid_subscription); default the network's (WEBHOOKS_CONFIRMATIONS), else 0: at once
             * @example 12
             */
            confirmations?: number;
            /**
             * @description include or exclude: exclude leaves out the transfers and metadata changes of collections flagged as spam (docs/reference/collections.md#spam); default include
             * @example exclude
             */
            spam?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @description A webhook subscription */
              subscription: {
                id: string;
                client_id: string | null;
                network: string;
                url: string;
                description: string;
                kinds: string[];
                contracts: string[];
                owners: string[];
                /** @description Blocks on top of a change's block before it is delivered (0: at once) */
                confirmations: string;
                /** @description include, or exclude: the changes of collections flagged as spam are left out */
                spam: string;
                enabled: boolean;
                disabled_reason: string | null;
                disabled_at: string | null;
                /** @description Every matching change up to this id was delivered */
                cursor: string;
                /** @description Failed attempts at the next change */
                attempts: string;
                failing_since: string | null;
                last_error: string | null;
                next_attempt_at: string;
                created_at: string;
              };
              /** @description whsec_…: shown this once */
              secret: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `malformed_json`: the body is not JSON; `unknown_network`: the network is not one of the registry's names; `invalid_address`: an address is not 0x + 40 hex digits, or its mixed case fails its EIP-55 checksum; `invalid_subscription`: a webhook subscription's kind, description or replay point is not one the service takes (the message says which); `endpoint_refused`: the webhook endpoint is not an https URL whose host resolves to public addresses only (the message says why) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error:
                "invalid_request" | "malformed_json" | "unknown_network" | "invalid_address" | "invalid_subscription" | "endpoint_refused";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_subscriptions`: the client holds WEBHOOKS_MAX_PER_CLIENT subscriptions already */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_subscriptions";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `payload_too_large`: the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES); `too_many_filters`: the subscription names more than WEBHOOKS_MAX_FILTERS contracts and owners together */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "payload_too_large" | "too_many_filters";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `unsupported_media_type`: the body is not application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "unsupported_media_type";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After); `network_unavailable`: the network is known but this service has no node for it (no RPC URL); `webhooks_off`: the operator has not set WEBHOOKS_SECRET_KEYS: no webhooks here */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full" | "network_unavailable" | "webhooks_off";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One subscription
     * @description A subscription of the client; another client's is answered as unknown (404).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A webhook subscription */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              id: string;
              client_id: string | null;
              network: string;
              url: string;
              description: string;
              kinds: string[];
              contracts: string[];
              owners: string[];
              /** @description Blocks on top of a change's block before it is delivered (0: at once) */
              confirmations: string;
              /** @description include, or exclude: the changes of collections flagged as spam are left out */
              spam: string;
              enabled: boolean;
              disabled_reason: string | null;
              disabled_at: string | null;
              /** @description Every matching change up to this id was delivered */
              cursor: string;
              /** @description Failed attempts at the next change */
              attempts: string;
              failing_since: string | null;
              last_error: string | null;
              next_attempt_at: string;
              created_at: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    /**
     * Remove a subscription (with its delivery log)
     * @description Nothing more is delivered; a delivery in flight may still arrive.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Removed */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}/enable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Enable a subscription: it resumes where it stopped, at once
     * @description Its failures are forgotten and it delivers from its cursor: nothing it missed meanwhile is lost (within WEBHOOKS_RETENTION_MS).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A webhook subscription */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              id: string;
              client_id: string | null;
              network: string;
              url: string;
              description: string;
              kinds: string[];
              contracts: string[];
              owners: string[];
              /** @description Blocks on top of a change's block before it is delivered (0: at once) */
              confirmations: string;
              /** @description include, or exclude: the changes of collections flagged as spam are left out */
              spam: string;
              enabled: boolean;
              disabled_reason: string | null;
              disabled_at: string | null;
              /** @description Every matching change up to this id was delivered */
              cursor: string;
              /** @description Failed attempts at the next change */
              attempts: string;
              failing_since: string | null;
              last_error: string | null;
              next_attempt_at: string;
              created_at: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}/disable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Disable a subscription: it keeps its place (WEBHOOKS_RETENTION_MS)
     * @description Nothing is delivered until it is enabled again.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A webhook subscription */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              id: string;
              client_id: string | null;
              network: string;
              url: string;
              description: string;
              kinds: string[];
              contracts: string[];
              owners: string[];
              /** @description Blocks on top of a change's block before it is delivered (0: at once) */
              confirmations: string;
              /** @description include, or exclude: the changes of collections flagged as spam are left out */
              spam: string;
              enabled: boolean;
              disabled_reason: string | null;
              disabled_at: string | null;
              /** @description Every matching change up to this id was delivered */
              cursor: string;
              /** @description Failed attempts at the next change */
              attempts: string;
              failing_since: string | null;
              last_error: string | null;
              next_attempt_at: string;
              created_at: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A new signing secret; the old one keeps signing beside it for 24 hours
     * @description Deliveries carry both signatures in webhook-signature until previous_secret_expires_at, so a receiver switches to the new secret without refusing a delivery. The new secret is shown this once.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              secret: string;
              previous_secret_expires_at: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After); `webhooks_off`: the operator has not set WEBHOOKS_SECRET_KEYS: no webhooks here */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full" | "webhooks_off";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}/replay": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Deliver again from an event id (included) or a time, within what the change log keeps
     * @description Moves the subscription's cursor: the changes it matches are delivered again, in order, under their webhook-ids. A point before the oldest change kept is refused (replay_out_of_range).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          /**
           * @example {
           *       "from_event": "42"
           *     }
           */
          "application/json": {
            /** @description A webhook-id: deliver it and what follows */
            from_event?: string;
            /** @description ISO 8601: deliver what was logged from then on */
            from_time?: string;
          };
        };
      };
      responses: {
        /** @description A webhook subscription */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              id: string;
              client_id: string | null;
              network: string;
              url: string;
              description: string;
              kinds: string[];
              contracts: string[];
              owners: string[];
              /** @description Blocks on top of a change's block before it is delivered (0: at once) */
              confirmations: string;
              /** @description include, or exclude: the changes of collections flagged as spam are left out */
              spam: string;
              enabled: boolean;
              disabled_reason: string | null;
              disabled_at: string | null;
              /** @description Every matching change up to this id was delivered */
              cursor: string;
              /** @description Failed attempts at the next change */
              attempts: string;
              failing_since: string | null;
              last_error: string | null;
              next_attempt_at: string;
              created_at: string;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character; `malformed_json`: the body is not JSON; `invalid_subscription`: a webhook subscription's kind, description or replay point is not one the service takes (the message says which) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request" | "malformed_json" | "invalid_subscription";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `replay_out_of_range`: the replay starts before the oldest change the log keeps (the message names it) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "replay_out_of_range";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `payload_too_large`: the body is over BODY_LIMIT (or metadata over SIGNED_METADATA_MAX_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "payload_too_large";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `unsupported_media_type`: the body is not application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "unsupported_media_type";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The delivery log: attempts newest first (kept three days)
     * @description Each attempt: the webhook-id, when, the receiver's status, the failure's class (null: accepted), and how long it took.
     */
    get: {
      parameters: {
        query?: {
          /** @example 20 */
          limit?: number;
        };
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              deliveries: {
                webhook_id: string;
                attempted_at: string;
                status: string | null;
                /** @description null: accepted */
                failure: string | null;
                message: string | null;
                milliseconds: string;
              }[];
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/subscriptions/{id}/test": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a signed test delivery (type test, webhook-id test_…) now and answer how the endpoint answered
     * @description The delivery is signed like the others (with both secrets during a rotation's overlap) and sent at once, outside the subscription's order; it is neither retried nor logged.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /**
           * @description Subscription id (ws_…)
           * @example ws_Jx3kq9VbT0aLm2Qe
           */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              ok: boolean;
              status: string | null;
              failure: string | null;
              message: string | null;
            };
          };
        };
        /** @description `invalid_request`: a field is missing or malformed (the message names it), or the request holds a control character */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_request";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `invalid_token`: no Authorization: Bearer token, or not a live client_credentials access token of a registered client */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "invalid_token";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `subscription_not_found`: no webhook subscription of this client has this id */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "subscription_not_found";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `too_many_requests`: this client's rate limit for the minute is used up (Retry-After) */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "too_many_requests";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `internal_error`: our fault: the details are in the log under the x-request-id */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "internal_error";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
        /** @description `database_busy`: the database is overloaded (Retry-After); `database_unavailable`: the database is unreachable (Retry-After); `database_full`: the database has no disk space left for a write (Retry-After); `webhooks_off`: the operator has not set WEBHOOKS_SECRET_KEYS: no webhooks here */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /**
               * @description snake_case code, stable: what programs compare
               * @enum {string}
               */
              error: "database_busy" | "database_unavailable" | "database_full" | "webhooks_off";
              /** @description What was wrong, for people */
              message: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
