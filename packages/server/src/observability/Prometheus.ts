import type * as MetricLabel from "effect/MetricLabel"
import type * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import * as Option from "effect/Option"

// Effect's metric snapshot in the Prometheus text exposition format (version 0.0.4).

export const contentType = "text/plain; version=0.0.4; charset=utf-8"

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")

const labels = (tags: ReadonlyArray<MetricLabel.MetricLabel>, extra: ReadonlyArray<readonly [string, string]> = []) => {
  const all = [...tags.map((tag) => [tag.key, tag.value] as const), ...extra]
  return all.length === 0 ? "" : `{${all.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(",")}}`
}

const number = (value: number | bigint) =>
  typeof value === "bigint" ? value.toString() : Number.isFinite(value) ? String(value) : value > 0 ? "+Inf" : "-Inf"

const typeOf = (state: MetricState.MetricState.Untyped) =>
  MetricState.isCounterState(state)
    ? "counter"
    : MetricState.isGaugeState(state)
    ? "gauge"
    : MetricState.isHistogramState(state)
    ? "histogram"
    : "untyped"

/** The sample lines of one metric (one tag set). */
const samples = (pair: MetricPair.MetricPair.Untyped): ReadonlyArray<string> => {
  const { name, tags } = pair.metricKey
  const state = pair.metricState
  if (MetricState.isCounterState(state)) return [`${name}${labels(tags)} ${number(state.count)}`]
  if (MetricState.isGaugeState(state)) return [`${name}${labels(tags)} ${number(state.value)}`]
  if (MetricState.isHistogramState(state)) {
    return [
      ...state.buckets.map(([boundary, count]) => `${name}_bucket${labels(tags, [["le", number(boundary)]])} ${count}`),
      `${name}_sum${labels(tags)} ${number(state.sum)}`,
      `${name}_count${labels(tags)} ${state.count}`
    ]
  }
  return []
}

/** Every metric of the snapshot, grouped by name with its `# HELP` and `# TYPE`, sorted by name. */
export const render = (snapshot: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const byName = new Map<string, Array<MetricPair.MetricPair.Untyped>>()
  for (const pair of snapshot) {
    const group = byName.get(pair.metricKey.name) ?? []
    group.push(pair)
    byName.set(pair.metricKey.name, group)
  }
  const lines: Array<string> = []
  for (const name of Array.from(byName.keys()).sort()) {
    const group = byName.get(name) ?? []
    const first = group[0]
    if (first === undefined) continue
    const help = Option.getOrElse(first.metricKey.description, () => name)
    lines.push(`# HELP ${name} ${help.replace(/\n/g, " ")}`, `# TYPE ${name} ${typeOf(first.metricState)}`)
    for (const pair of group) lines.push(...samples(pair))
  }
  return `${lines.join("\n")}\n`
}
