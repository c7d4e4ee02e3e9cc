// The raw baseline: a plain `node:http` server with a `pg` pool (no Effect, no framework) that answers each
// read endpoint of the benchmark by running, one after the other, the very statements our server runs for it
// (the recipes captured by ./capture.ts), and returns the rows as JSON. What it costs is what the database
// costs plus the least a Node server must do; our server's throughput is measured against it.
//
// Env: DATABASE_URL, PORT, RECIPES (a JSON file of `Recipes`), POOL (connections per process, our server's 20),
// PREPARED (`1`, the bench's default: run the statements as named prepared statements, as our server does), PROCESSES
// (that many processes on the port through Node's cluster module, as `PROCESSES` runs ours).
import cluster from "node:cluster"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import * as http from "node:http"
import pg from "pg"
import { bind, type Param, type Recipe, type Recipes } from "./recipe.js"

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value.length === 0) throw new Error(`${name} is required`)
  return value
}

const recipes = JSON.parse(readFileSync(env("RECIPES"), "utf8")) as Recipes
const pool = new pg.Pool({ connectionString: env("DATABASE_URL"), max: Number(process.env["POOL"] ?? "20") })

const prepared = process.env["PREPARED"] === "1"
const names = new Map<string, string>()
const nameOf = (text: string) => {
  const known = names.get(text)
  if (known !== undefined) return known
  const name = `b${names.size}`
  names.set(text, name)
  return name
}

/**
 * The request's key in place of the captured one: its hash in the lookup (the first statement), then the id
 * the lookup found wherever the captured key's id is (the bucket `key:<id>`).
 */
const forKey = (param: Param, hash: string, keyId: string | undefined): Param =>
  param === recipes.auth.hash
    ? hash
    : keyId !== undefined && param === `key:${recipes.auth.keyId}`
    ? `key:${keyId}`
    : keyId !== undefined && param === recipes.auth.keyId
    ? keyId
    : param

/** The rows of each statement; undefined when the key is unknown (the lookup found nothing). */
const run = async (recipe: Recipe, hash: string) => {
  const now = new Date()
  const results: Array<ReadonlyArray<unknown>> = []
  let keyId: string | undefined
  for (const statement of recipe) {
    const values = bind(statement.params.map((param) => forKey(param, hash, keyId)), now)
    const query = prepared ? { name: nameOf(statement.sql), text: statement.sql, values } : { text: statement.sql, values }
    const rows = (await pool.query<{ id?: unknown }>(query)).rows
    if (results.length === 0) {
      const id = rows[0]?.id
      if (typeof id !== "string") return undefined
      keyId = id
    }
    results.push(rows)
  }
  return results
}

const DAY = 86_400_000
const nightsOf = (url: URL): number =>
  (Date.parse(url.searchParams.get("check_out") ?? "") - Date.parse(url.searchParams.get("check_in") ?? "")) / DAY

/** The recipe of a request, or undefined for an unknown route. */
const route = (method: string, url: URL): Recipe | undefined => {
  if (method !== "GET") return undefined
  if (url.pathname === "/me") return recipes.me
  if (url.pathname.startsWith("/reservations/")) return recipes.reservation
  if (url.pathname === "/rates") {
    if (nightsOf(url) <= 3) return recipes.rates3
    return url.searchParams.getAll("include").flatMap((v) => v.split(",")).includes("trace") ? recipes.rates30Traced : recipes.rates30
  }
  return undefined
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost")
  if (url.pathname === "/health") return send(res, 200, { status: "ok" })
  const recipe = route(req.method ?? "GET", url)
  if (recipe === undefined) return send(res, 404, { error: "unknown route" })
  // Our server hashes the presented key to look it up; so does the baseline.
  const presented = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? ""
  const hash = createHash("sha256").update(presented, "utf8").digest("hex")
  run(recipe, hash).then(
    (rows) => (rows === undefined ? send(res, 401, { error: "unknown key" }) : send(res, 200, { data: rows })),
    (error: unknown) => send(res, 500, { error: String(error) })
  )
})

server.keepAliveTimeout = 60_000
if (cluster.isPrimary && Number(process.env["PROCESSES"] ?? "1") > 1) {
  for (let i = 0; i < Number(process.env["PROCESSES"]); i++) cluster.fork()
} else {
  server.listen(Number(env("PORT")), "127.0.0.1")
}
