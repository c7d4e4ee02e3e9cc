// `npx tsx scripts/bench/pair.ts OTHER_CHECKOUT [--only me,reservation,quote-30] [--blocks 8] [--duration 2]
// [--concurrency 8]`: our server of this checkout against the one of another checkout (each started as `npm
// start` starts it, on one scratch database), served the same requests in short blocks of wrk (one thread,
// `--concurrency` connections, `--duration` seconds a block) taken in turn (A, B, A, B, ...), with the CPU
// each process spent on each block divided by the requests wrk completed in it. The load is native, as in the
// bench: a Node client on the same two cores would take the CPU the servers are measured on. Two servers of
// the same code differ by less than the machine's load moves either, so a block is short and the sides
// alternate often: what the load does to one block it does to its neighbour of the other side. It prints the
// median CPU per request of each side per workload and their ratio. Any answer but 200, or a socket error,
// stops it. DATABASE_URL: the server to create the scratch database on.
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { scratchDatabase } from "../../packages/persistence/test/utils/scratchPostgres.js"
import { manyKeys } from "./keys.js"
import { type Running, startOurs } from "./processes.js"
import { importProperty, SCOPES, setUp } from "./setup.js"
import { median } from "./stats.js"
import { ensureWrk } from "./tools.js"
import { runWrk, writeWrkScript } from "./wrk.js"

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}
const other = process.argv[2]
if (other === undefined || other.startsWith("--")) throw new Error("usage: pair.ts OTHER_CHECKOUT [options]")
const only = option("only", "me,reservation,quote-30").split(",")
const blocks = Number(option("blocks", "8"))
const duration = Number(option("duration", "2"))
const concurrency = Number(option("concurrency", "8"))

const server = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

const main = Effect.gen(function*() {
  const wrk = ensureWrk()
  const url = yield* scratchDatabase(server, "hotel_pair")
  yield* Effect.promise(async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "hotel-pair-"))
    const theirs = (await import(pathToFileURL(path.resolve(other, "scripts/bench/processes.ts")).href)) as {
      startOurs: typeof startOurs
    }
    const imported = await importProperty(url)
    const b = await startOurs(url)
    const setup = await setUp(url, b, imported)
    const a = await theirs.startOurs(url)
    const keys = await Effect.runPromise(manyKeys(url, setup.propertyId, SCOPES, 8192))
    const paths: Record<string, string> = {
      me: "/me",
      reservation: `/reservations/${setup.reservationId}`,
      "quote-30": `/rates?check_in=2031-03-01&check_out=2031-03-31&adults=2&room_type_id=${setup.ids.std}`,
      "quote-3": `/rates?check_in=2031-03-01&check_out=2031-03-04&adults=2&room_type_id=${setup.ids.std}`
    }
    const keysFile = path.join(work, "keys.txt")
    writeFileSync(keysFile, `${keys.secrets.join("\n")}\n`)
    /** One block of wrk on a side: the CPU the side's processes spent per request wrk completed. */
    const run = async (side: Running, route: string, script: string) => {
      const before = side.cpuMillis() ?? 0
      const result = await runWrk({ wrk, baseUrl: side.baseUrl, script, threads: 1, connections: concurrency, seconds: duration })
      const after = side.cpuMillis() ?? 0
      const unexpected = Object.keys(result.statuses).filter((status) => status !== "200")
      if (unexpected.length > 0) throw new Error(`${route}: statuses ${JSON.stringify(result.statuses)}`)
      if (result.socketErrors > 0) throw new Error(`${route}: ${result.socketErrors} socket errors or timeouts`)
      if (result.requests === 0) throw new Error(`${route}: no request completed`)
      return (after - before) / result.requests
    }
    try {
      for (const workload of only) {
        const route = paths[workload]
        if (route === undefined) throw new Error(`unknown workload ${workload}`)
        const script = writeWrkScript(path.join(work, `${workload}.lua`), { kind: "get", path: route }, keysFile)
        await run(a, route, script)
        await run(b, route, script)
        const perA: Array<number> = []
        const perB: Array<number> = []
        for (let block = 0; block < blocks; block++) {
          perA.push(await run(a, route, script))
          perB.push(await run(b, route, script))
        }
        const ratios = perA.map((x, i) => (perB[i] ?? 0) / x)
        console.log(
          `${workload}: CPU ms/req other ${median(perA).toFixed(3)}, this ${median(perB).toFixed(3)}, ` +
            `this/other ${median(ratios).toFixed(3)} (per block ${ratios.map((r) => r.toFixed(2)).join(" ")})`
        )
      }
    } finally {
      await Promise.all([a.stop(), b.stop()])
      rmSync(work, { recursive: true, force: true })
    }
  })
})

Effect.runPromise(Effect.scoped(main)).then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
