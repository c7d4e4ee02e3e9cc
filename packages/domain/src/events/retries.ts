// When a webhook delivery is tried again: about 5 s, 30 s, 2 min, 10 min and 1 h after the
// previous attempt, then every hour, until 24 hours have passed since the first attempt; then it has failed.

const second = 1000
const minute = 60 * second
const hour = 60 * minute

/** The wait after attempt n (1-based): the listed delays, then hourly. */
export const retryDelays: ReadonlyArray<number> = [5 * second, 30 * second, 2 * minute, 10 * minute, hour]

/** How long after the first attempt a delivery keeps being retried. */
export const retryWindow = 24 * hour

export const delayAfter = (attempt: number): number => retryDelays[attempt - 1] ?? hour

/**
 * The time of the next attempt after a failed attempt number `attempt` made at `attemptedAt`, or null when
 * that would fall outside the window that opened at `firstAttemptAt` (the delivery has failed).
 */
export const nextAttemptAt = (firstAttemptAt: Date, attempt: number, attemptedAt: Date): Date | null => {
  const next = attemptedAt.getTime() + delayAfter(attempt)
  return next > firstAttemptAt.getTime() + retryWindow ? null : new Date(next)
}

/** A 2xx answer is a delivery; anything else (other status, timeout, refused connection) is retried. */
export const isDelivered = (status: number | null): boolean => status !== null && status >= 200 && status < 300
