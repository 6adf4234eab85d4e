import { DomainError } from "../lib/domain-error";

/** The subscription's input is malformed (a field, a filter, a kind). */
export function invalidSubscription(message: string): DomainError {
  return new DomainError("invalid", "invalid_subscription", message);
}

/** The endpoint URL is not one the service delivers to (scheme, form, or an address the guard refuses). */
export function endpointRefused(message: string): DomainError {
  return new DomainError("invalid", "endpoint_refused", message);
}

export function tooManyFilters(max: number): DomainError {
  return new DomainError("too_large", "too_many_filters", `a subscription names at most ${max} contracts and owners together`);
}

export function tooManySubscriptions(max: number): DomainError {
  return new DomainError("conflict", "too_many_subscriptions", `a client holds at most ${max} subscriptions; remove one first`);
}

export function subscriptionNotFound(id: string): DomainError {
  return new DomainError("not_found", "subscription_not_found", `no subscription ${id.slice(0, 64)}`);
}

/** No WEBHOOKS_SECRET_KEYS: secrets could not be stored safely, so nothing is subscribed or delivered. */
export function webhooksOff(): DomainError {
  return new DomainError("unavailable", "webhooks_off", "webhooks are off on this service: its operator has not set WEBHOOKS_SECRET_KEYS");
}

/** A replay from before the oldest change the log keeps. */
export function replayOutOfRange(oldest: Date | null): DomainError {
  return new DomainError(
    "conflict",
    "replay_out_of_range",
    oldest === null ? "the change log keeps nothing to replay" : `the change log keeps changes from ${oldest.toISOString()} on`,
  );
}
