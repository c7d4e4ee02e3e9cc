// The soak's mixed load: what an integrator's day looks like, one request at a time. Quotes and reads on
// any reservation; holds and bookings of two rooms that are then confirmed, changed, cancelled or left to
// expire; a change that leaves money owing followed by its payment. Every action picks its own target from
// what earlier answers created, so the load keeps a steady state.
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

/** The reservations (and bookings) the load created, by what may still be done with them. */
interface Pools {
  readonly held: Array<string>
  readonly bookings: Array<string>
  readonly confirmed: Array<string>
  readonly known: Array<string>
  /** The stay of each reservation made, for a change that adds a night. */
  readonly stays: Map<string, { readonly check_in: string; readonly check_out: string }>
}

/** Caps what the pools remember: an action on an old reservation is as good as on a new one. */
const remember = (pool: Array<string>, id: string, cap = 2000) => {
  pool.push(id)
  if (pool.length > cap) pool.splice(0, pool.length - cap)
}

export type Action = "quote" | "read" | "list" | "hold" | "booking" | "confirm" | "change" | "cancel"

/** The share of each action in the mix (they add up to 100). */
export const weights: ReadonlyArray<readonly [Action, number]> = [
  ["quote", 27],
  ["read", 22],
  ["list", 5],
  ["hold", 17],
  ["booking", 3],
  ["confirm", 12],
  ["change", 8],
  ["cancel", 6]
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
  const pools: Pools = { held: [], bookings: [], confirmed: [], known: [setup.reservationId], stays: new Map() }
  let references = 0
  const reference = () => {
    references += 1
    return `soak_${process.pid}_${references}`
  }

  const stay = () => {
    const checkIn = addDays(SPREAD_FROM, Math.floor(Math.random() * SPREAD_DAYS))
    return { check_in: checkIn, check_out: addDays(checkIn, 1 + Math.floor(Math.random() * 4)) }
  }
  const made = (id: string, dates: { readonly check_in: string; readonly check_out: string }) => {
    remember(pools.known, id)
    pools.stays.set(id, dates)
    if (pools.stays.size > 4000) {
      const oldest = pools.stays.keys().next().value
      if (oldest !== undefined) pools.stays.delete(oldest)
    }
  }
  const room = { room_type_id: setup.ids.std, rate_plan_id: setup.ids.plan, adults: 2 }
  const guest = () => randomOf(setup.holdGuests) ?? setup.guestId

  const confirmBooking = async (id: string) => {
    const answer = await send("POST", `/bookings/${id}/confirm`, { payment_reference: reference() })
    const rooms = answer.body["reservations"]
    if (answer.status === 200 && Array.isArray(rooms)) {
      for (const each of rooms as ReadonlyArray<{ readonly reservation_id?: unknown }>) {
        if (typeof each.reservation_id === "string") remember(pools.confirmed, each.reservation_id)
      }
    }
    return answer
  }

  const run: Record<Action, () => Promise<Answer>> = {
    quote: () => {
      const { check_in, check_out } = stay()
      return send("GET", `/rates?check_in=${check_in}&check_out=${check_out}&adults=2&room_type_id=${setup.ids.std}`)
    },
    read: () => send("GET", `/reservations/${randomOf(pools.known) ?? setup.reservationId}`),
    list: () => send("GET", "/reservations?limit=25"),
    hold: async () => {
      const dates = stay()
      const answer = await send("POST", "/holds", { ...room, guest_id: guest(), ...dates })
      const id = answer.body["reservation_id"]
      if (answer.status === 201 && typeof id === "string") {
        remember(pools.held, id)
        made(id, dates)
      }
      return answer
    },
    booking: async () => {
      const dates = stay()
      const answer = await send("POST", "/bookings", { guest_id: guest(), ...dates, rooms: [room, room] })
      const id = answer.body["booking_id"]
      const rooms = answer.body["reservations"]
      if (answer.status === 201 && typeof id === "string" && Array.isArray(rooms)) {
        remember(pools.bookings, id)
        for (const each of rooms as ReadonlyArray<{ readonly reservation_id?: unknown }>) {
          if (typeof each.reservation_id === "string") made(each.reservation_id, dates)
        }
      }
      return answer
    },
    confirm: async () => {
      if (pools.bookings.length > 0 && Math.random() < 0.2) {
        const booking = takeRandom(pools.bookings)
        if (booking !== undefined) return confirmBooking(booking)
      }
      const id = takeRandom(pools.held)
      if (id === undefined) return run.hold()
      const answer = await send("POST", `/holds/${id}/confirm`, { payment_reference: reference() })
      if (answer.status === 200) remember(pools.confirmed, id)
      return answer
    },
    change: async () => {
      const id = randomOf(Math.random() < 0.7 ? pools.confirmed : pools.held)
      const dates = id === undefined ? undefined : pools.stays.get(id)
      if (id === undefined || dates === undefined) return run.read()
      // A stay is at most 30 nights: the long ones change their notes instead.
      const nights = (Date.parse(dates.check_out) - Date.parse(dates.check_in)) / 86_400_000
      const longer = nights < 20 && Math.random() < 0.5
      const answer = await send("PATCH", `/reservations/${id}`, longer
        ? { check_out: addDays(dates.check_out, 1) }
        : { special_notes: `soak ${reference()}` })
      if (answer.status !== 200) return answer
      if (longer) pools.stays.set(id, { ...dates, check_out: addDays(dates.check_out, 1) })
      const owed = Number(answer.body["folio_balance"])
      // A confirmed stay made longer owes the difference: the integrator records the guest's payment.
      return answer.body["status"] === "confirmed" && owed > 0
        ? send("POST", `/reservations/${id}/payments`, {
          payment_reference: reference(),
          amount: String(answer.body["folio_balance"]),
          currency: answer.body["currency"]
        })
        : answer
    },
    cancel: () => {
      const id = takeRandom(Math.random() < 0.7 ? pools.confirmed : pools.held)
      return id === undefined ? run.read() : send("POST", `/reservations/${id}/cancel`, { reason: "soak" })
    }
  }

  return { next: () => run[pickAction()](), pools }
}
