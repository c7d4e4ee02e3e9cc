// The soak's own verdict over its minutes (see ./README.md): memory that settles, no 5xx, no request left
// unanswered, no connection left idle in a transaction.
import type { Minute } from "./observe.js"

/** The minute memory is compared with: the 5th, or the middle one of a run too short to have it. */
export const referenceMinute = (minutes: number): number => (minutes >= 6 ? 5 : Math.max(1, Math.ceil(minutes / 2)))

/** How the last minute's memory compares with the reference minute's, for the report. */
export const memoryTrend = (minutes: ReadonlyArray<Minute>): string => {
  const reference = minutes.find((m) => m.minute === referenceMinute(minutes.length))
  const last = minutes[minutes.length - 1]
  if (reference === undefined || last === undefined) return "RSS: no samples"
  const change = ((last.rssMb - reference.rssMb) / reference.rssMb) * 100
  return `RSS ${last.rssMb} MB in minute ${last.minute}, ${change >= 0 ? "+" : ""}${change.toFixed(1)}% from minute ${reference.minute}'s ${reference.rssMb} MB`
}

export const verdict = (minutes: ReadonlyArray<Minute>): ReadonlyArray<string> => {
  const failures: Array<string> = []
  const reference = minutes.find((m) => m.minute === referenceMinute(minutes.length))
  const last = minutes[minutes.length - 1]
  if (reference !== undefined && last !== undefined && last !== reference) {
    // Growth is what a leak looks like; a drop is V8 giving back pages of a young generation it shrank.
    const growth = (last.rssMb - reference.rssMb) / reference.rssMb
    if (!(growth <= 0.1)) {
      failures.push(`RSS ${last.rssMb} MB in minute ${last.minute} is ${(growth * 100).toFixed(1)}% above minute ${reference.minute}'s ${reference.rssMb} MB (at most 10%)`)
    }
  }
  const sum = (f: (m: Minute) => number) => minutes.reduce((total, m) => total + f(m), 0)
  if (sum((m) => m.serverErrors) > 0) failures.push(`${sum((m) => m.serverErrors)} responses 5xx`)
  if (sum((m) => m.failures) > 0) failures.push(`${sum((m) => m.failures)} requests without an answer`)
  if (sum((m) => m.otherClientErrors) > 0) failures.push(`${sum((m) => m.otherClientErrors)} unexpected 4xx (not 409)`)
  const idle = Math.max(0, ...minutes.map((m) => m.idleInTransactionMax))
  if (idle > 0) failures.push(`up to ${idle} connection(s) idle in a transaction for more than 5 s`)
  if (sum((m) => m.requests) === 0) failures.push("no request was answered")
  return failures
}

export const table = (minutes: ReadonlyArray<Minute>): string =>
  [
    "| minute | requests | 2xx | 409 | other 4xx | 5xx | no answer | p50 / p99 ms | RSS MB (median / max) | pool busy max / size | waiting max | idle in tx |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...minutes.map((m) =>
      `| ${m.minute} | ${m.requests} | ${m.ok} | ${m.conflicts} | ${m.otherClientErrors} | ${m.serverErrors} | ${m.failures} | ${m.p50Ms} / ${m.p99Ms} | ${m.rssMb} / ${m.rssMaxMb} | ${m.poolBusyMax} / ${m.poolSize} | ${m.poolWaitingMax} | ${m.idleInTransactionMax} |`
    )
  ].join("\n")
