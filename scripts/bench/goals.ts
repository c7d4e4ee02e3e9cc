// The performance goals the service is held to, checked against one run's summaries and printed as met or
// not met. Informational: the bench's exit code is about errors and oversold nights only, since a shared
// machine moves these ratios from run to run.
import type { Summary } from "./stats.js"

export const PLAIN = "plain server"
export const PGBENCH = "pgbench"
/** `quote-30` on our server: the baseline of `quote-30-override`, the same quote over nights with overrides. */
export const OURS_NO_OVERRIDES = "ours, quote-30"

interface Check {
  readonly label: string
  readonly value: (summary: Summary) => number
  readonly bound: "at most" | "at least"
  readonly limit: number
}

const cpu = (limit: number, label = "CPU per request ours/plain"): Check => ({ label, value: (s) => s.cpu_ratio, bound: "at most", limit })
const throughput = (limit: number): Check => ({ label: "throughput ours/baseline", value: (s) => s.ratio, bound: "at least", limit })
const p99 = (limit: number): Check => ({ label: "p99 ours/baseline", value: (s) => s.p99_ratio, bound: "at most", limit })

const GOALS: ReadonlyArray<{ readonly workload: string; readonly baseline: string; readonly checks: ReadonlyArray<Check> }> = [
  { workload: "reservation", baseline: PLAIN, checks: [cpu(2), throughput(0.6), p99(1.5)] },
  { workload: "me", baseline: PLAIN, checks: [cpu(3)] },
  { workload: "holds-spread", baseline: PGBENCH, checks: [throughput(0.8), p99(1.5)] },
  { workload: "holds-hot", baseline: PGBENCH, checks: [throughput(0.8), p99(1.5)] },
  { workload: "quote-30", baseline: PGBENCH, checks: [throughput(0.6)] },
  { workload: "quote-30-override", baseline: OURS_NO_OVERRIDES, checks: [cpu(1.1, "CPU per request with overrides/without")] },
  { workload: "ari-write", baseline: PGBENCH, checks: [throughput(0.5)] }
]

const verdict = (check: Check, summary: Summary): string => {
  const value = check.value(summary)
  const met = check.bound === "at most" ? value <= check.limit : value >= check.limit
  return `${check.label} ${Number.isNaN(value) ? "n/a" : value} (${check.bound} ${check.limit}): ${
    Number.isNaN(value) ? "not measured" : met ? "met" : "NOT MET"
  }`
}

/** One line per goal whose workload and baseline were measured. */
export const goalLines = (summaries: ReadonlyArray<Summary>): ReadonlyArray<string> =>
  GOALS.flatMap((goal) => {
    const summary = summaries.find((s) => s.workload === goal.workload && s.baseline === goal.baseline)
    return summary === undefined
      ? []
      : [`goal ${goal.workload} vs ${goal.baseline}: ${goal.checks.map((check) => verdict(check, summary)).join("; ")}`]
  })
