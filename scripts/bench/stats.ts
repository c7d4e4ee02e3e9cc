// Summaries of the rounds: the ratio ours/baseline per round (its median, min and max) and latency percentiles
// over every request of every round.

export interface Side {
  readonly throughput: Array<number>
  readonly latencies: Array<number>
  /** The server's CPU milliseconds per request, per round (empty where it cannot be read, and for pgbench). */
  readonly cpuPerRequest: Array<number>
}

export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

const median = (values: ReadonlyArray<number>) => percentile([...values].sort((a, b) => a - b), 50)

export interface Summary {
  readonly workload: string
  readonly ours_rps: number
  readonly base_rps: number
  readonly ratio: number
  readonly ratio_min: number
  readonly ratio_max: number
  readonly ours_p50_ms: number
  readonly ours_p99_ms: number
  readonly base_p50_ms: number
  readonly base_p99_ms: number
  /** Our p99 over the baseline's (the latency goal is stated as this ratio). */
  readonly p99_ratio: number
  /** Median over the rounds of our server's CPU ms per request; NaN when not measured. */
  readonly ours_cpu_ms: number
  /** The same for the plain baseline server; NaN for pgbench. */
  readonly base_cpu_ms: number
}

const round = (n: number, digits: number) => Number(n.toFixed(digits))

export const summarize = (workload: string, ours: Side, base: Side): Summary => {
  const ratios = ours.throughput.map((t, i) => t / (base.throughput[i] ?? Number.NaN))
  const oursSorted = [...ours.latencies].sort((a, b) => a - b)
  const baseSorted = [...base.latencies].sort((a, b) => a - b)
  return {
    workload,
    ours_rps: round(median(ours.throughput), 0),
    base_rps: round(median(base.throughput), 0),
    ratio: round(median(ratios), 3),
    ratio_min: round(Math.min(...ratios), 3),
    ratio_max: round(Math.max(...ratios), 3),
    ours_p50_ms: round(percentile(oursSorted, 50), 1),
    ours_p99_ms: round(percentile(oursSorted, 99), 1),
    base_p50_ms: round(percentile(baseSorted, 50), 1),
    base_p99_ms: round(percentile(baseSorted, 99), 1),
    p99_ratio: round(percentile(oursSorted, 99) / percentile(baseSorted, 99), 2),
    ours_cpu_ms: ours.cpuPerRequest.length === 0 ? Number.NaN : round(median(ours.cpuPerRequest), 2),
    base_cpu_ms: base.cpuPerRequest.length === 0 ? Number.NaN : round(median(base.cpuPerRequest), 2)
  }
}

/** A Markdown table of the summaries (printed, and pasted into the README). */
export const markdown = (rows: ReadonlyArray<Summary>): string =>
  [
    "| workload | ours req/s | baseline req/s | ratio ours/baseline (min–max) | ours p50 / p99 ms | baseline p50 / p99 ms | p99 ours/baseline | ours CPU ms/request | baseline CPU ms/request |",
    "|---|---:|---:|---|---:|---:|---:|---:|---:|",
    ...rows.map((r) =>
      `| ${r.workload} | ${r.ours_rps} | ${r.base_rps} | **${r.ratio}** (${r.ratio_min}–${r.ratio_max}) | ${r.ours_p50_ms} / ${r.ours_p99_ms} | ${r.base_p50_ms} / ${r.base_p99_ms} | ${r.p99_ratio} | ${Number.isNaN(r.ours_cpu_ms) ? "n/a" : r.ours_cpu_ms} | ${Number.isNaN(r.base_cpu_ms) ? "n/a" : r.base_cpu_ms} |`
    )
  ].join("\n")
