// `npm run scale-out`: three compiled API processes (`node dist/hotel.js serve`, built first by the npm
// script) on one scratch database, behind a round-robin proxy, and the guarantees that must hold across
// them: holds never oversell, a hold confirmed at once through several processes is paid once, an
// Idempotency-Key runs once, and one key's rate-limit budget is shared. Prints the figures; exits 1 when a
// check fails. Database: a scratch one on the server of DATABASE_URL (default the local PostgreSQL), dropped
// at the end. Options (env): SCALE_OUT_HOLDS (30), SCALE_OUT_CONFIRMS (12), SCALE_OUT_IDEMPOTENT (12),
// SCALE_OUT_BURST (900).
import pg from "pg"
import { type CheckResult, confirms, type Demo, holds, idempotency, rateLimits } from "./checks.js"
import { client } from "./client.js"
import { startProxy } from "./proxy.js"
import { scratchDatabase } from "./scratchDatabase.js"
import { hotel, type Server, startServer } from "./servers.js"

const option = (name: string, fallback: number) => Number(process.env[name] ?? String(fallback))

/** What `hotel demo` prints: `{ demo: <the import's ids>, api_key }`. */
interface DemoImport {
  readonly demo: {
    readonly property_id: string
    readonly room_types: Record<string, string>
    readonly rate_plans: Record<string, string>
  }
}

const scopes = "rates:read,rates:write,reservations:read,reservations:write,catalog:read,guests:read,guests:write,folios:write"

const runChecks = async (demo: Demo): Promise<ReadonlyArray<CheckResult>> => [
  await holds(demo, option("SCALE_OUT_HOLDS", 30)),
  await confirms(demo, option("SCALE_OUT_CONFIRMS", 12)),
  await idempotency(demo, option("SCALE_OUT_IDEMPOTENT", 12)),
  await rateLimits(demo, option("SCALE_OUT_BURST", 900), 50)
]

const main = async (): Promise<boolean> => {
  const database = await scratchDatabase("hotel_scale_out")
  const servers: Array<Server> = []
  const pool = new pg.Pool({ connectionString: database.url, max: 4 })
  try {
    await hotel("compiled", database.url, "migrate")
    const imported = (JSON.parse(await hotel("compiled", database.url, "demo")) as DemoImport).demo
    servers.push(...await Promise.all([0, 1, 2].map(() => startServer("compiled", database.url))))
    process.stdout.write(`3 processes ready (startup ${servers.map((s) => `${s.startupMs.toFixed(0)} ms`).join(", ")})\n`)
    const proxy = await startProxy(servers.map((s) => s.baseUrl))
    try {
      const demo: Demo = {
        api: client(proxy.baseUrl, pool),
        propertyId: imported.property_id,
        roomTypes: imported.room_types,
        ratePlans: imported.rate_plans,
        newKey: async () => {
          const created = await hotel("compiled", database.url, "key", "create", "--property", imported.property_id, "--scopes", scopes)
          return (JSON.parse(created) as { key: string }).key
        }
      }
      const results = await runChecks(demo)
      for (const result of results) {
        process.stdout.write(`${result.ok ? "PASS" : "FAIL"} ${result.name}: ${JSON.stringify(result.figures)}\n`)
      }
      process.stdout.write(`requests per process: ${proxy.served.join(", ")}\n`)
      return results.every((result) => result.ok)
    } finally {
      await proxy.close()
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await pool.end()
    await database.drop()
  }
}

main().then((ok) => process.exit(ok ? 0 : 1), (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
