// Runs a pgbench script (./pgbench.ts) for a fixed time: throughput, p50 and p99 from its per-transaction log,
// failed transactions, and pgbench's own CPU.
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { PgbenchScript } from "./pgbench.js"
import { childrenCpuMillis } from "./processes.js"
import { percentile } from "./stats.js"

export interface PgbenchResult {
  readonly transactions: number
  readonly seconds: number
  readonly throughput: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly failed: number
  /** pgbench's own CPU per transaction, ms (the client, not the database); undefined without /proc. */
  readonly loadCpuPerRequest: number | undefined
}

/**
 * Runs `script` with `clients` sessions (on 2 threads) for `seconds`; the percentiles from pgbench's
 * per-transaction log.
 */
export const runPgbench = (
  pgbench: string,
  url: string,
  script: PgbenchScript,
  clients: number,
  seconds: number,
  mode: "extended" | "prepared"
) =>
  new Promise<PgbenchResult>((resolve, reject) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hotel-pgbench-"))
    const file = path.join(dir, "script.sql")
    writeFileSync(file, script.text)
    const args = [
      "-n", "-M", mode, "-c", String(clients), "-j", "2", "-T", String(seconds),
      ...script.defines.flatMap((define) => ["-D", define]),
      "-f", file, "-l", `--log-prefix=${path.join(dir, "log")}`, url
    ]
    const cpuBefore = childrenCpuMillis()
    execFile(pgbench, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const cpuAfter = childrenCpuMillis()
      try {
        if (error !== null) {
          reject(new Error(`pgbench ran nothing: ${error.message}\n${stdout}\n${stderr}\n--- script ---\n${script.text}\n--- variables ---\n${script.defines.join("\n")}`))
          return
        }
        const latencies: Array<number> = []
        for (const log of readdirSync(dir).filter((f) => f.startsWith("log"))) {
          for (const line of readFileSync(path.join(dir, log), "utf8").split("\n")) {
            const fields = line.split(" ")
            // client_id transaction_no time script_no time_epoch time_us: `time` is the latency in µs.
            if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000)
          }
        }
        latencies.sort((a, b) => a - b)
        const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? "0")
        const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? "0")
        const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? "NaN")
        resolve({
          transactions,
          seconds,
          throughput: Number.isNaN(tps) ? transactions / seconds : tps,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          failed,
          loadCpuPerRequest: cpuBefore === undefined || cpuAfter === undefined || transactions === 0
            ? undefined
            : (cpuAfter - cpuBefore) / transactions
        })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
