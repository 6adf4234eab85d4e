import { OutboundRefusal, resolveHost, type ResolveAll } from "../outbound/guarded-lookup";
import { endpointRefused } from "./errors";

/** Longest endpoint URL taken. */
export const MAX_URL_LENGTH = 2_048;

export interface EndpointRules {
  /** `http://` endpoints too (the local setup); else `https://` only. */
  allowHttp: boolean;
  /** Loopback, private and link-local addresses too (the local setup, tests). */
  allowPrivate: boolean;
  /** How names resolve: the system's resolver unless a test gives its own. */
  resolveAll?: ResolveAll;
}

/**
 * The endpoint a subscription delivers to, refused unless it is an absolute `https://` URL (or `http://` where
 * allowed) without credentials or fragment whose host resolves to public addresses only: every address its name
 * resolves to is checked, as the metadata fetch checks them, and each delivery checks them again as it connects (a
 * name may resolve elsewhere later). Answers the URL as the service will write it.
 */
export async function checkEndpoint(text: string, rules: EndpointRules): Promise<string> {
  if (text.length > MAX_URL_LENGTH) throw endpointRefused(`the endpoint URL is longer than ${MAX_URL_LENGTH} characters`);
  // The URL parser would drop or encode these silently: what is stored must be what was given.
  if (/[\s\p{Cc}]/u.test(text)) throw endpointRefused("the endpoint URL has a space or a control character");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw endpointRefused("the endpoint is not an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && rules.allowHttp)) {
    throw endpointRefused(rules.allowHttp ? "the endpoint must be an http(s) URL" : "the endpoint must be an https:// URL");
  }
  if (url.username !== "" || url.password !== "") throw endpointRefused("the endpoint URL may not carry a user name or password");
  if (url.hash !== "" || text.includes("#")) throw endpointRefused("the endpoint URL may not have a fragment");
  try {
    await resolveHost(url, !rules.allowPrivate, rules.resolveAll);
  } catch (error) {
    if (!(error instanceof OutboundRefusal)) throw error;
    throw endpointRefused(
      error.reason === "forbidden"
        ? `refused endpoint ${error.host}: ${error.detail}`
        : `the endpoint's host ${error.host} ${error.detail}`,
    );
  }
  return url.href;
}
