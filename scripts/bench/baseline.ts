// The raw baseline: a plain `node:http` server with a `pg` pool (no Effect, no framework) that answers each
// read endpoint of the benchmark by running, one after the other, the very statements our server runs for it
// (the recipes captured by ./capture.ts), and returns the rows as JSON; and `POST /holds` by replaying the
// captured hold's transaction for the request's stay (./baselineHold.ts). What it costs is what the database
// costs plus the least a Node server must do; our server's throughput is measured against it.
//
// Env: DATABASE_URL, PORT, RECIPES (a JSON file of `BaselineRecipes`), POOL (connections per process, our server's 20),
// PREPARED (`1`, the bench's default: run the statements as named prepared statements, as our server does), PROCESSES
// (that many processes on the port through Node's cluster module, as `PROCESSES` runs ours).
import cluster from "node:cluster"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import * as http from "node:http"
import pg from "pg"
import { holdRequestOf, runHold } from "./baselineHold.js"
import type { HoldRecipe } from "./holdParams.js"
import { bind, type Param, type Recipe, type Recipes, type Statement } from "./recipe.js"

/** The reads' recipes and the holds' (one per room type the load holds). */
export interface BaselineRecipes extends Recipes {
  readonly holds: ReadonlyArray<HoldRecipe>
}

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value.length === 0) throw new Error(`${name} is required`)
  return value
}

const recipes = JSON.parse(readFileSync(env("RECIPES"), "utf8")) as BaselineRecipes
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

const queryOf = (statement: Statement, values: Array<unknown>) =>
  prepared ? { name: nameOf(statement.sql), text: statement.sql, values } : { text: statement.sql, values }

const query = async (client: pg.Pool | pg.PoolClient, statement: Statement, values: Array<unknown>) =>
  (await client.query<{ id?: unknown }>(queryOf(statement, values))).rows

/**
 * The rows of each statement and the key id the lookup (the first) found; undefined when the key is unknown
 * (the lookup found nothing).
 */
const run = async (recipe: Recipe, hash: string) => {
  const now = new Date()
  const results: Array<ReadonlyArray<unknown>> = []
  let keyId: string | undefined
  for (const statement of recipe) {
    const rows = await query(pool, statement, bind(statement.params.map((param) => forKey(param, hash, keyId)), now))
    if (results.length === 0) {
      const id = rows[0]?.id
      if (typeof id !== "string") return undefined
      keyId = id
    }
    results.push(rows)
  }
  return keyId === undefined ? undefined : { results, keyId }
}

/** A hold: the key's lookup (its statements as the reads run them), then the hold's transaction; 401 for an unknown key. */
const hold = async (body: string, hash: string): Promise<number> => {
  const request = holdRequestOf(body)
  const recipe = recipes.holds.find((candidate) => candidate.roomTypeId === request?.roomTypeId)
  if (request === undefined || recipe === undefined) return 400
  const found = await run(recipe.hold.auth, hash)
  if (found === undefined) return 401
  const client = await pool.connect()
  try {
    return await runHold(client, recipe, request, query, (param) => forKey(param, hash, found.keyId))
  } finally {
    client.release()
  }
}

const DAY = 86_400_000
const nightsOf = (url: URL): number =>
  (Date.parse(url.searchParams.get("check_out") ?? "") - Date.parse(url.searchParams.get("check_in") ?? "")) / DAY

/** The recipe of a read, or undefined for an unknown route. */
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
  // Our server hashes the presented key to look it up; so does the baseline.
  const presented = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? ""
  const hash = createHash("sha256").update(presented, "utf8").digest("hex")
  if (req.method === "POST" && url.pathname === "/holds") {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      hold(Buffer.concat(chunks).toString("utf8"), hash).then(
        (status) => send(res, status, { status }),
        (error: unknown) => send(res, 500, { error: String(error) })
      )
    })
    return
  }
  const recipe = route(req.method ?? "GET", url)
  if (recipe === undefined) return send(res, 404, { error: "unknown route" })
  run(recipe, hash).then(
    (found) => (found === undefined ? send(res, 401, { error: "unknown key" }) : send(res, 200, { data: found.results })),
    (error: unknown) => send(res, 500, { error: String(error) })
  )
})

server.keepAliveTimeout = 60_000
if (cluster.isPrimary && Number(process.env["PROCESSES"] ?? "1") > 1) {
  for (let i = 0; i < Number(process.env["PROCESSES"]); i++) cluster.fork()
} else {
  server.listen(Number(env("PORT")), "127.0.0.1")
}
