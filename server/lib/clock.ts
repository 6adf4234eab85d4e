/**
 * Milliseconds since the epoch, as `Date.now()` gives them: what the service's time-bound memories read (caches with
 * a time-to-live), passed in so that a test can move time forward instead of sleeping.
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
