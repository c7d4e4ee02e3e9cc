// `npm run bench:startup`: time from spawning `hotel serve` to its first 200 on `/health/live`, for the
// compiled entry point (`node dist/hotel.js`, run `npm run build` first) and for the TypeScript sources through
// tsx (`npm start`), on one migrated scratch database (on the server of DATABASE_URL, default the local one).
// Wall time depends on what else the machine runs; the CPU time the server's processes used until then does
// much less. Options (env): STARTUP_RUNS (default 5).
import { scratchDatabase } from "../scale-out/scratchDatabase.js"
import { hotel, type Runtime, startServer } from "../scale-out/servers.js"

const runs = Number(process.env["STARTUP_RUNS"] ?? "5")

const measure = async (runtime: Runtime, databaseUrl: string) => {
  const wall: Array<number> = []
  const cpu: Array<number> = []
  for (let run = 0; run < runs; run++) {
    const server = await startServer(runtime, databaseUrl)
    wall.push(server.startupMs)
    cpu.push(server.startupCpuMs)
    await server.stop()
  }
  return { wall, cpu }
}

const summary = (times: ReadonlyArray<number>) => {
  const sorted = [...times].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  return `median ${median.toFixed(0)} ms, min ${(sorted[0] ?? 0).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms` +
    ` (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`
}

const main = async () => {
  const database = await scratchDatabase("hotel_startup")
  try {
    await hotel("compiled", database.url, "migrate")
    for (const runtime of ["compiled", "tsx"] as const) {
      const { cpu, wall } = await measure(runtime, database.url)
      process.stdout.write(`${runtime.padEnd(8)} wall: ${summary(wall)}\n${"".padEnd(8)} cpu:  ${summary(cpu)}\n`)
    }
  } finally {
    await database.drop()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
