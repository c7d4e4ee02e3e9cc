// The workloads: what each sends (wrk's traffic) and which baselines it is measured against. Reads against
// the plain server; holds and quotes against pgbench, and the plain server too.
import { ARI_VARY } from "./ari.js"
import { OURS_NO_OVERRIDES, PGBENCH, PLAIN } from "./goals.js"
import { api } from "./setup.js"
import type { Running } from "./processes.js"
import type { Setup } from "./setup.js"
import type { AriSetup } from "./ari.js"
import type { Traffic } from "./wrk.js"

// `ari-write` last: its calls write overrides over the nights `quote-30-override` quotes.
export const WORKLOADS = [
  "reservation", "me", "holds-spread", "holds-hot", "quote-3", "quote-30", "quote-30-traced", "quote-30-override", "ari-write"
] as const
export type Workload = typeof WORKLOADS[number]

export const isHolds = (w: Workload) => w === "holds-spread" || w === "holds-hot"
const isQuote = (w: Workload) => w.startsWith("quote-")

export const SPREAD_FROM = "2031-01-01"
export const SPREAD_DAYS = 1095
export const HOT_NIGHT = "2031-06-01"
export const HOLD_NIGHTS = 2

/** The baselines of a workload, in the order each round runs them after ours. */
export const baselinesOf = (w: Workload): ReadonlyArray<string> =>
  w === "quote-30-override" ? [OURS_NO_OVERRIDES] : w === "ari-write" ? [PGBENCH] : isHolds(w) || isQuote(w) ? [PGBENCH, PLAIN] : [PLAIN]

export interface Load {
  readonly threads: number
  readonly connections: number
  readonly sessions: number
  readonly duration: number
}

/**
 * The load of a workload: the options' for all but `ari-write`, whose calls take about a second each and queue
 * on one lock (ours: the property's; pgbench: the same rows'). There 2 connections and 2 sessions keep one call
 * in the database while the next is sent (more would only queue, past wrk's timeout), and runs of at least 15 s
 * complete tens of calls, where wrk drops the calls still in flight at the end.
 */
export const loadOf = (w: Workload, options: Load): Load =>
  w === "ari-write" ? { threads: 1, connections: 2, sessions: 2, duration: Math.max(options.duration, 15) } : options

const ratesPath = (setup: Setup, checkOut: string) =>
  `/rates?check_in=2031-03-01&check_out=${checkOut}&adults=2&room_type_id=${setup.ids.std}`

/**
 * `untraced`: what an untraced quote adds to its query; empty for a server whose quotes leave the trace out
 * unless `include=trace` asks for it (see `tracedByDefault`). `ari`: what ./ari.ts set up.
 */
export const trafficOf = (setup: Setup, w: Workload, untraced: string, ari: AriSetup): Traffic => {
  switch (w) {
    case "reservation":
      return { kind: "get", path: `/reservations/${setup.reservationId}` }
    case "me":
      return { kind: "get", path: "/me" }
    case "holds-spread":
    case "holds-hot": {
      const hot = w === "holds-hot"
      return {
        kind: "hold",
        roomTypeId: hot ? setup.ids.hot : setup.ids.std,
        ratePlanId: hot ? setup.ids.hotPlan : setup.ids.plan,
        from: hot ? HOT_NIGHT : SPREAD_FROM,
        days: hot ? 1 : SPREAD_DAYS,
        nights: HOLD_NIGHTS,
        adults: 2,
        guests: setup.holdGuests
      }
    }
    case "quote-3":
      return { kind: "get", path: `${ratesPath(setup, "2031-03-04")}${untraced}` }
    case "quote-30":
      return { kind: "get", path: `${ratesPath(setup, "2031-03-31")}${untraced}` }
    case "quote-30-traced":
      return { kind: "get", path: `${ratesPath(setup, "2031-03-31")}&include=trace` }
    case "quote-30-override":
      return { kind: "get", path: `${ari.overrideQuotePath}${untraced}` }
    case "ari-write":
      return { kind: "post", path: "/ari", bodyFile: ari.bodyFile, vary: ARI_VARY }
  }
}

/**
 * Whether the server answers each night's trace without `include=trace` (a server from before the trace
 * became opt-in, which left it out only for `trace=false`): then the untraced workloads send `trace=false`,
 * so that a measurement of such a server compares with one of a later server.
 */
export const tracedByDefault = async (ours: Running, setup: Setup): Promise<boolean> => {
  const answer = await api(ours.baseUrl, setup.key, "GET", ratesPath(setup, "2031-03-04"))
  const offers = Array.isArray(answer["data"]) ? (answer["data"] as ReadonlyArray<{ nights?: ReadonlyArray<object> }>) : []
  const night = offers[0]?.nights?.[0]
  if (night === undefined) throw new Error(`GET /rates answered no night to look at: ${JSON.stringify(answer).slice(0, 300)}`)
  return "trace" in night
}
