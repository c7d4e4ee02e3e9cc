// The channel ARI workloads (see ./README.md): `ari-write`, a `POST /ari` of 1000 rate items of 100 nights each
// over the bench property's STD plans, and `quote-30-override`, the 30-night quote of `quote-30` on nights where
// the chain's top plan has an override on every night (its derived plans follow it), above the same seasons.
import * as Effect from "effect/Effect"
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { ariRowsTable, ariWriteScript } from "./ariPgbench.js"
import { adminQuery, captureAriWrite } from "./capture.js"
import type { PgbenchScript } from "./pgbench.js"
import type { Running } from "./processes.js"
import { seasons } from "./property.js"
import { addDays, api, type Setup } from "./setup.js"

export const ARI_ITEMS = 1000
export const ARI_NIGHTS_PER_ITEM = 100
/** What each request of `ari-write` replaces by two random digits: the cents of every price it sets. */
export const ARI_VARY = "@V@"

/** The override quote's first night: far enough ahead for any today, within the 730 days `POST /ari` accepts. */
const overrideFrom = (today: string) => addDays(today, 400)
const QUOTE_NIGHTS = 30

export interface AriPlan {
  readonly id: string
  readonly derived: boolean
}

/**
 * The `ari-write` body, with `ARI_VARY` in place of each price's cents. Item k is on plan k mod the plans, 100
 * nights from a start that moves 15 days each time the plans come round, so each plan's items overlap (last
 * wins within the call) over about 715 nights. A derived plan takes no price (it follows its parent), only
 * restrictions.
 */
export const ariBody = (plans: ReadonlyArray<AriPlan>, today: string): string => {
  const first = addDays(today, 2)
  const items = Array.from({ length: ARI_ITEMS }, (_, k) => {
    const plan = plans[k % plans.length] as AriPlan
    const start = addDays(first, (Math.floor(k / plans.length) * 15) % 600)
    return {
      rate_plan_id: plan.id,
      start_date: start,
      end_date: addDays(start, ARI_NIGHTS_PER_ITEM),
      ...(plan.derived ? {} : { price: `${100 + (k % 50)}.${ARI_VARY}` }),
      min_stay: 1 + (k % 3),
      max_stay: 30,
      closed_to_arrival: false,
      closed_to_departure: false,
      stop_sell: false
    }
  })
  return JSON.stringify({ items })
}

/** The body as one request sends it, its cents `cents`. */
export const ariBodyWith = (template: string, cents: number) => template.split(ARI_VARY).join(String(cents).padStart(2, "0"))

/** The property's today as the bench reads it (UTC; the property's zone is an hour away at most). */
const todayUtc = () => new Date().toISOString().slice(0, 10)

export interface AriSetup {
  /** The `ari-write` body with `ARI_VARY` left in (see `ariBody`), written to `bodyFile` for wrk. */
  readonly template: string
  readonly bodyFile: string
  /** `quote-30-override`'s path: `quote-30`'s query over nights with overrides. */
  readonly overrideQuotePath: string
}

const ratesPath = (setup: Setup, checkIn: string) =>
  `/rates?check_in=${checkIn}&check_out=${addDays(checkIn, QUOTE_NIGHTS)}&adults=2&room_type_id=${setup.ids.std}`

/**
 * Through the API: the seasons of `quote-30` on the override quote's month, then on the chain's top plan an
 * override of every field on every night of it (and its departure night), which closes nothing, so the quote
 * offers what `quote-30` offers. Writes the `ari-write` body to `bodyFile`.
 */
export const setUpAri = async (url: string, ours: Running, setup: Setup, bodyFile: string): Promise<AriSetup> => {
  const from = overrideFrom(todayUtc())
  const shift = (date: string) => addDays(from, (Date.parse(date) - Date.parse(seasons[0]?.start_date ?? date)) / 86_400_000)
  for (const season of seasons) {
    await api(ours.baseUrl, setup.key, "POST", `/rate-plans/${setup.ids.plan}/intervals`, {
      ...season,
      start_date: shift(season.start_date),
      end_date: shift(season.end_date)
    })
  }
  const month = { rate_plan_id: setup.ids.plan, start_date: from, end_date: addDays(from, QUOTE_NIGHTS + 1) }
  await api(ours.baseUrl, setup.key, "POST", "/ari", {
    items: [
      { ...month, price: "130.00", min_stay: 1, max_stay: 30, closed_to_arrival: false, closed_to_departure: false, stop_sell: false },
      { ...month, days: ["fri", "sat"], price: "155.00" }
    ]
  })
  const overrideQuotePath = ratesPath(setup, from)
  const offers = async (route: string) => {
    const answer = await api(ours.baseUrl, setup.key, "GET", route)
    return Array.isArray(answer["data"]) ? answer["data"].length : -1
  }
  const [withOverrides, without] = [await offers(overrideQuotePath), await offers(ratesPath(setup, "2031-03-01"))]
  if (withOverrides !== without) throw new Error(`the override quote offers ${withOverrides} plans, quote-30 ${without}`)
  const plans = await Effect.runPromise(adminQuery<AriPlan>(url, `
    SELECT id, derived_from_id IS NOT NULL AS derived FROM rate_plans
    WHERE room_type_id = $1 AND deleted_at IS NULL ORDER BY code`, [setup.ids.std]))
  const template = ariBody(plans, todayUtc())
  writeFileSync(bodyFile, template)
  return { template, bodyFile, overrideQuotePath }
}

/**
 * The ARI workloads' setup (`setUpAri`, the body in `work`), and `ari-write`'s pgbench script after `gateway` (the
 * key lookup's script): the rows of one call captured from `AriWrites.apply` with every price's cents 00.
 */
export const ariWorkloads = async (url: string, ours: Running, setup: Setup, work: string, gateway: PgbenchScript) => {
  const ari = await setUpAri(url, ours, setup, path.join(work, "ari-body.json"))
  const { items } = JSON.parse(ariBodyWith(ari.template, 0)) as { readonly items: unknown }
  const call = await Effect.runPromise(captureAriWrite(url, setup.propertyId, items))
  const rows = await ariRowsTable(url, call)
  return { ari, script: ariWriteScript(gateway), summary: `ari-write: ${call.length} statements in its transaction, ${rows} rows merged (pgbench: one upsert of the same rows)` }
}
