// Summaries of the rounds, for each pair (workload, baseline): the throughput ratio ours/baseline per round
// (its median, min and max), each side's p50 and p99 (the median over the rounds of each round's), the p99
// ratio, and the CPU per request of each Node side (the median over the rounds).

/** One run of one side. */
export interface Run {
  readonly throughput: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** The side's server processes' CPU ms per request; undefined for pgbench (not a Node side) or without /proc. */
  readonly cpuPerRequest: number | undefined
}

export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2 === 1
    ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2
}

export interface Summary {
  readonly workload: string
  readonly baseline: string
  readonly ours_rps: number
  readonly base_rps: number
  readonly ratio: number
  readonly ratio_min: number
  readonly ratio_max: number
  readonly ours_p50_ms: number
  readonly ours_p99_ms: number
  readonly base_p50_ms: number
  readonly base_p99_ms: number
  /** The median over the rounds of our p99 over the baseline's (the latency goals are stated as this ratio). */
  readonly p99_ratio: number
  /** Median over the rounds of our server's CPU ms per request; NaN when not measured. */
  readonly ours_cpu_ms: number
  /** The same for the plain server; NaN for pgbench. */
  readonly base_cpu_ms: number
  /** ours_cpu_ms / base_cpu_ms; NaN where either is. */
  readonly cpu_ratio: number
}

const round = (n: number, digits: number) => Number(n.toFixed(digits))

const cpuOf = (runs: ReadonlyArray<Run>) => {
  const measured = runs.flatMap((run) => (run.cpuPerRequest === undefined ? [] : [run.cpuPerRequest]))
  return measured.length === 0 ? Number.NaN : median(measured)
}

export const summarize = (workload: string, baseline: string, ours: ReadonlyArray<Run>, base: ReadonlyArray<Run>): Summary => {
  const ratios = ours.map((run, i) => run.throughput / (base[i]?.throughput ?? Number.NaN))
  const p99Ratios = ours.map((run, i) => run.p99Ms / (base[i]?.p99Ms ?? Number.NaN))
  const oursCpu = cpuOf(ours)
  const baseCpu = cpuOf(base)
  return {
    workload,
    baseline,
    ours_rps: round(median(ours.map((run) => run.throughput)), 0),
    base_rps: round(median(base.map((run) => run.throughput)), 0),
    ratio: round(median(ratios), 3),
    ratio_min: round(Math.min(...ratios), 3),
    ratio_max: round(Math.max(...ratios), 3),
    ours_p50_ms: round(median(ours.map((run) => run.p50Ms)), 1),
    ours_p99_ms: round(median(ours.map((run) => run.p99Ms)), 1),
    base_p50_ms: round(median(base.map((run) => run.p50Ms)), 1),
    base_p99_ms: round(median(base.map((run) => run.p99Ms)), 1),
    p99_ratio: round(median(p99Ratios), 2),
    ours_cpu_ms: round(oursCpu, 2),
    base_cpu_ms: round(baseCpu, 2),
    cpu_ratio: round(oursCpu / baseCpu, 2)
  }
}

const shown = (n: number) => (Number.isNaN(n) ? "n/a" : String(n))

/** A Markdown table of the summaries (printed, and pasted into the README). */
export const markdown = (rows: ReadonlyArray<Summary>): string =>
  [
    "| workload | baseline | ours req/s | baseline req/s | throughput ours/baseline (min–max) | ours p50 / p99 ms | baseline p50 / p99 ms | p99 ours/baseline | ours CPU ms/req | baseline CPU ms/req | CPU ours/baseline |",
    "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) =>
      `| ${r.workload} | ${r.baseline} | ${r.ours_rps} | ${r.base_rps} | **${r.ratio}** (${r.ratio_min}–${r.ratio_max}) | ${r.ours_p50_ms} / ${r.ours_p99_ms} | ${r.base_p50_ms} / ${r.base_p99_ms} | ${r.p99_ratio} | ${shown(r.ours_cpu_ms)} | ${shown(r.base_cpu_ms)} | ${shown(r.cpu_ratio)} |`
    )
  ].join("\n")

/**
 * How far a plain Node server gets on the statements pgbench runs, round by round, where a workload ran both:
 * the part of a goal against pgbench that any Node server answering HTTP on the same cores already spends.
 */
export const plainVsPgbench = (
  workload: string,
  plain: ReadonlyArray<Run>,
  pgbench: ReadonlyArray<Run>
): string => {
  // The plain server in the place of ours: the same per-round ratios as the table's.
  const s = summarize(workload, "pgbench", plain, pgbench)
  return `${workload}: throughput ${s.ratio} (${s.ratio_min}–${s.ratio_max}), p99 ${s.p99_ratio}×, plain server CPU ${
    shown(s.ours_cpu_ms)
  } ms/req`
}
