import { providerRequest } from "./held-writes";

/**
 * oidc-provider middleware: a request whose rate-limit count the code's statement was to make and did not (another
 * grant, or a refusal before the code was consumed) is counted before its answer goes out; an error answer past the
 * limit becomes the 429 `too_many_requests` in RFC 6749's dialect, a success is not taken back (server/http/rate-limit.ts).
 */
export async function countAfterRequest(
  ctx: { status: number; body: unknown; set(name: string, value: string): void },
  next: () => Promise<void>,
): Promise<void> {
  await next();
  const scope = providerRequest();
  const refusal = await scope?.count?.settle();
  if (!refusal || ctx.status < 400 || ctx.status === 429) return;
  scope!.retryAfterSeconds = refusal.retryAfterSeconds;
  ctx.status = 429;
  ctx.body = { error: refusal.code, error_description: refusal.message };
  ctx.set("retry-after", String(refusal.retryAfterSeconds));
}
