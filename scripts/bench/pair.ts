// `npx tsx scripts/bench/pair.ts OTHER_CHECKOUT [--only me,reservation,quote-30] [--blocks 8] [--requests 1000]
// [--concurrency 8]`: our server of this checkout against the one of another checkout (each started as `npm
// start` starts it, on one scratch database), served the same requests in small blocks taken in turn (A, B,
// A, B, ...), with the CPU each process spent on each block. Two servers of the same code differ by less
// than the machine's load moves either, so a block is short and the sides alternate often: what the load
// does to one block it does to its neighbour of the other side. It prints the median CPU per request of
// each side per workload and their ratio. DATABASE_URL: the server to create the scratch database on.
import * as Effect from "effect/Effect"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { scratchDatabase } from "../../packages/persistence/test/utils/scratchPostgres.js"
import { manyKeys } from "./keys.js"
import { type Running, startOurs } from "./processes.js"
import { importProperty, SCOPES, setUp } from "./setup.js"
import { median } from "./stats.js"

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}
const other = process.argv[2]
if (other === undefined || other.startsWith("--")) throw new Error("usage: pair.ts OTHER_CHECKOUT [options]")
const only = option("only", "me,reservation,quote-30").split(",")
const blocks = Number(option("blocks", "8"))
const requests = Number(option("requests", "1000"))
const concurrency = Number(option("concurrency", "8"))

const server = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

const main = Effect.gen(function*() {
  const url = yield* scratchDatabase(server, "hotel_pair")
  yield* Effect.promise(async () => {
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
    const run = async (side: Running, route: string, count: number) => {
      let next = 0
      const worker = async () => {
        while (next < count) {
          next++
          const secret = keys.secrets[Math.floor(Math.random() * keys.secrets.length)]
          const res = await fetch(`${side.baseUrl}${route}`, { headers: { authorization: `Bearer ${secret}` } })
          await res.arrayBuffer()
          if (res.status !== 200) throw new Error(`${route}: ${res.status}`)
        }
      }
      const before = side.cpuMillis() ?? 0
      await Promise.all(Array.from({ length: concurrency }, worker))
      return ((side.cpuMillis() ?? 0) - before) / count
    }
    try {
      for (const workload of only) {
        const route = paths[workload]
        if (route === undefined) throw new Error(`unknown workload ${workload}`)
        await run(a, route, requests)
        await run(b, route, requests)
        const perA: Array<number> = []
        const perB: Array<number> = []
        for (let block = 0; block < blocks; block++) {
          perA.push(await run(a, route, requests))
          perB.push(await run(b, route, requests))
        }
        const ratios = perA.map((x, i) => (perB[i] ?? 0) / x)
        console.log(
          `${workload}: CPU ms/req other ${median(perA).toFixed(3)}, this ${median(perB).toFixed(3)}, ` +
            `this/other ${median(ratios).toFixed(3)} (per block ${ratios.map((r) => r.toFixed(2)).join(" ")})`
        )
      }
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  })
})

Effect.runPromise(Effect.scoped(main)).then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
