// Where a transaction's time goes between its statements, read from PostgreSQL's own log: with
// `log_min_duration_statement = 0` and `log_line_prefix = '%m [%p] %a '` every bind, execute and simple
// statement is logged with its end (ms) and duration, per backend. For each application (`hotel`: our server;
// `pgbench`), the transactions of its most common shape are lined up step by step: the gap before each step
// (the client's time between the previous answer and this statement: its own work and its waits for a CPU) and
// the step's time in the server. The lock a hold queues on is the step that waits longest; the time from its
// end to the commit's is how long the lock was held. Usage, after a run with that logging (see ./README.md):
//   tsx scripts/bench/statementGaps.ts /var/log/postgresql/postgresql-15-main.log hotel pgbench
import { readFileSync } from "node:fs"

interface Step {
  readonly name: string
  readonly start: number
  end: number
  duration: number
}

const LINE =
  /^(\S+ \S+) UTC \[(\d+)\] (\S+) LOG: {2}duration: ([\d.]+) ms {2}(?:(bind|execute|parse) (\S+?): ?(\w*)|statement: (\w+))/
const CONTROL = new Set(["BEGIN", "COMMIT", "ROLLBACK"])

/** Each backend's transactions of `application`, as steps (a bind and its execute are one step). */
const transactionsOf = (lines: ReadonlyArray<string>, application: string): ReadonlyArray<ReadonlyArray<Step>> => {
  const open = new Map<string, Array<Step>>()
  const done: Array<ReadonlyArray<Step>> = []
  for (const line of lines) {
    const m = LINE.exec(line)
    if (m === null || m[3] !== application) continue
    const end = Date.parse(`${m[1].replace(" ", "T")}Z`)
    const duration = Number(m[4])
    const phase = m[5]
    // pgbench prepares its BEGIN and COMMIT; our driver sends them as simple statements.
    const control = phase === undefined ? m[8] : CONTROL.has(m[7] ?? "") ? m[7] : undefined
    if (phase !== undefined && control !== undefined && phase !== "execute") continue
    const backend = m[2]
    if (control === "BEGIN") {
      open.set(backend, [{ name: "BEGIN", start: end - duration, end, duration }])
      continue
    }
    const steps = open.get(backend)
    if (steps === undefined) continue
    if (control !== undefined) {
      steps.push({ name: control, start: end - duration, end, duration })
      done.push(steps)
      open.delete(backend)
    } else if (phase === "execute") {
      const last = steps[steps.length - 1]
      if (last !== undefined) Object.assign(last, { end, duration: last.duration + duration })
    } else if (phase !== undefined) {
      steps.push({ name: (m[6] ?? "").slice(0, 10), start: end - duration, end, duration })
    }
  }
  return done
}

const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)

const report = (application: string, transactions: ReadonlyArray<ReadonlyArray<Step>>) => {
  const shapes = new Map<string, Array<ReadonlyArray<Step>>>()
  for (const t of transactions) {
    const shape = t.map((step) => step.name).join(" ")
    const known = shapes.get(shape)
    if (known === undefined) shapes.set(shape, [t])
    else known.push(t)
  }
  const [shape, same] = [...shapes].sort((a, b) => b[1].length - a[1].length)[0] ?? ["", []]
  console.log(`${application}: ${same.length} transactions of its most common shape (${shape})`)
  const first = same[0] ?? []
  first.forEach((step, i) => {
    const gap = i === 0 ? 0 : mean(same.map((t) => (t[i]?.start ?? 0) - (t[i - 1]?.end ?? 0)))
    console.log(`  ${step.name.padEnd(10)} gap before ${gap.toFixed(2)} ms, in the server ${mean(same.map((t) => t[i]?.duration ?? 0)).toFixed(3)} ms`)
  })
  const held = same.map((t) => {
    const lock = t.slice(1).reduce((longest, step) => (step.duration > longest.duration ? step : longest), t[1] ?? t[0])
    return (t[t.length - 1]?.end ?? 0) - (lock?.end ?? 0)
  })
  console.log(`  from the longest-waiting step's end to the commit's: ${mean(held).toFixed(2)} ms`)
}

const [file, ...applications] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: statementGaps.ts LOGFILE [APPLICATION ...]")
const lines = readFileSync(file, "utf8").split("\n")
for (const application of applications.length > 0 ? applications : ["hotel", "pgbench"]) {
  report(application, transactionsOf(lines, application))
}
