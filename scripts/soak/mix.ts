// The soak's mixed load: what an integrator's day looks like, one request at a time. Quotes and reads on
// any reservation; holds that are then confirmed, cancelled or left to expire; confirmed stays cancelled.
// Every action picks its own target from what earlier answers created, so the load keeps a steady state.
import { addDays, type Setup } from "../bench/setup.js"

export interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

export type Send = (method: string, path: string, body?: unknown) => Promise<Answer>

const SPREAD_FROM = "2031-01-01"
const SPREAD_DAYS = 1095

const randomOf = <A>(items: ReadonlyArray<A>): A | undefined => items[Math.floor(Math.random() * items.length)]

/** Removes and answers a random element (order does not matter here). */
const takeRandom = <A>(items: Array<A>): A | undefined => {
  if (items.length === 0) return undefined
  const at = Math.floor(Math.random() * items.length)
  const [taken] = items.splice(at, 1)
  return taken
}

/** The reservations the load created, by what may still be done with them. */
interface Pools {
  readonly held: Array<string>
  readonly confirmed: Array<string>
  readonly known: Array<string>
}

/** Caps what the pools remember: an action on an old reservation is as good as on a new one. */
const remember = (pool: Array<string>, id: string, cap = 2000) => {
  pool.push(id)
  if (pool.length > cap) pool.splice(0, pool.length - cap)
}

export type Action = "quote" | "read" | "list" | "hold" | "confirm" | "cancel"

/** The share of each action in the mix (they add up to 100). */
export const weights: ReadonlyArray<readonly [Action, number]> = [
  ["quote", 30],
  ["read", 25],
  ["list", 5],
  ["hold", 20],
  ["confirm", 12],
  ["cancel", 8]
]

const pickAction = (): Action => {
  let roll = Math.random() * 100
  for (const [action, weight] of weights) {
    roll -= weight
    if (roll < 0) return action
  }
  return "quote"
}

export const makeMix = (setup: Setup, send: Send) => {
  const pools: Pools = { held: [], confirmed: [], known: [setup.reservationId] }
  let references = 0

  const stay = () => {
    const checkIn = addDays(SPREAD_FROM, Math.floor(Math.random() * SPREAD_DAYS))
    return { check_in: checkIn, check_out: addDays(checkIn, 1 + Math.floor(Math.random() * 4)) }
  }

  const run: Record<Action, () => Promise<Answer>> = {
    quote: () => {
      const { check_in, check_out } = stay()
      return send("GET", `/rates?check_in=${check_in}&check_out=${check_out}&adults=2&room_type_id=${setup.ids.std}`)
    },
    read: () => send("GET", `/reservations/${randomOf(pools.known) ?? setup.reservationId}`),
    list: () => send("GET", "/reservations?limit=25"),
    hold: async () => {
      const answer = await send("POST", "/holds", {
        room_type_id: setup.ids.std,
        rate_plan_id: setup.ids.plan,
        guest_id: randomOf(setup.holdGuests) ?? setup.guestId,
        adults: 2,
        ...stay()
      })
      const id = answer.body["reservation_id"]
      if (answer.status === 201 && typeof id === "string") {
        remember(pools.held, id)
        remember(pools.known, id)
      }
      return answer
    },
    confirm: async () => {
      const id = takeRandom(pools.held)
      if (id === undefined) return run.hold()
      references += 1
      const answer = await send("POST", `/holds/${id}/confirm`, { payment_reference: `soak_${process.pid}_${references}` })
      if (answer.status === 200) remember(pools.confirmed, id)
      return answer
    },
    cancel: () => {
      const id = takeRandom(Math.random() < 0.7 ? pools.confirmed : pools.held)
      return id === undefined ? run.read() : send("POST", `/reservations/${id}/cancel`, { reason: "soak" })
    }
  }

  return { next: () => run[pickAction()](), pools }
}
