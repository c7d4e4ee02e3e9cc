// The bench property as both the benchmark and the soak use it: imported with the `hotel` CLI before our
// server starts (so it installs no demo), then completed through the API (seasons, a guest, one hold to read)
// and 1000 more guests for holds (a guest may hold only 10 stays at once).
import * as Effect from "effect/Effect"
import { rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { adminQuery } from "./capture.js"
import { hotel, type Running } from "./processes.js"
import { benchProperty, seasons } from "./property.js"

export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

export const SCOPES = [
  "rates:read", "rates:write", "reservations:read", "reservations:write", "catalog:read", "guests:read", "guests:write"
]

export interface Setup {
  readonly url: string
  readonly key: string
  readonly propertyId: string
  readonly reservationId: string
  readonly guestId: string
  /** The hold workloads' guests, one picked at random per hold (a guest may hold only 10 stays at once). */
  readonly holdGuests: ReadonlyArray<string>
  readonly ids: { readonly std: string; readonly hot: string; readonly plan: string; readonly hotPlan: string }
}

export const api = async (base: string, key: string, method: string, route: string, body?: unknown) => {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = (await res.json()) as Record<string, unknown>
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

/**
 * The bench property and a key with its own limit (hotel CLI, before our server starts, so it installs no
 * demo); then through the API: 3 seasons, a guest and one hold to read.
 */
export const importProperty = async (url: string) => {
  const file = path.join(os.tmpdir(), `hotel-bench-property-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(benchProperty))
  const imported = await hotel<{
    property_id: string
    room_types: Record<string, string>
    rate_plans: Record<string, string>
  }>(url, "property", "import", file).finally(() => rmSync(file, { force: true }))
  const expires = new Date(Date.now() + 2 * 3_600_000).toISOString()
  const { key } = await hotel<{ key: string }>(
    url, "key", "create", "--property", imported.property_id, "--label", "benchmark", "--rate-limit", "1000000",
    "--expires-at", expires, "--scopes", SCOPES.join(",")
  )
  const ids = {
    std: imported.room_types["STD"],
    hot: imported.room_types["HOT"],
    plan: imported.rate_plans["CHAIN-0"],
    hotPlan: imported.rate_plans["HOT-BAR"]
  }
  return { key, ids }
}

export const setUp = async (url: string, ours: Running, { ids, key }: Awaited<ReturnType<typeof importProperty>>): Promise<Setup> => {
  for (const season of seasons) await api(ours.baseUrl, key, "POST", `/rate-plans/${ids.plan}/intervals`, season)
  const guest = await api(ours.baseUrl, key, "POST", "/guests", { first_name: "Ana", last_name: "Bench", email: "ana@example.com" })
  const guestId = String(guest["guest_id"])
  const hold = await api(ours.baseUrl, key, "POST", "/holds", {
    room_type_id: ids.std, rate_plan_id: ids.plan, check_in: "2030-12-01", check_out: "2030-12-04", guest_id: guestId, adults: 2
  })
  const me = await api(ours.baseUrl, key, "GET", "/me")
  const guests = await Effect.runPromise(adminQuery<{ id: string }>(url, `
    INSERT INTO guests (property_id, first_name, last_name, email, created_at)
    SELECT $1, 'Bench', 'Guest ' || n, 'bench-' || n || '@example.com', now() FROM generate_series(1, 1000) AS n
    RETURNING id`, [String(me["property_id"])]))
  // Planner statistics as autovacuum would have them by now (a server may run without it): both sides then
  // run the same plans as on a database in service.
  await Effect.runPromise(adminQuery(url, "ANALYZE"))
  const propertyId = String(me["property_id"])
  return { url, key, propertyId, reservationId: String(hold["reservation_id"]), guestId, holdGuests: guests.map((g) => g.id), ids }
}

