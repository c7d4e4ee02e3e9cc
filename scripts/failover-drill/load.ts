// The drill's traffic: quotes, availability, the catalogue and rate plans (the reads a standby serves), and
// bookings (a guest, a hold, its confirm, the reservation read back), each write with an Idempotency-Key and
// retried with it after a 503 as a well-behaved client would. Every answer is recorded with when it was sent and
// answered.

export type Kind = "quote" | "availability" | "catalogue" | "rate_plans" | "guest" | "hold" | "confirm" | "reservation"

/** The reads a standby serves, which must go on while no primary answers. */
export const standbyReads: ReadonlySet<Kind> = new Set(["quote", "availability", "catalogue", "rate_plans"])

export interface Answer {
  readonly kind: Kind
  readonly sentAt: number
  readonly answeredAt: number
  /** 0: no HTTP answer at all (the connection failed). */
  readonly status: number
  readonly code: string | undefined
}

export interface Confirmed {
  readonly reservationId: string
  readonly paymentReference: string
  readonly answeredAt: number
}

export interface Demo {
  readonly baseUrl: string
  readonly key: string
  readonly roomTypes: Record<string, string>
  readonly ratePlans: Record<string, string>
}

export interface LoadResult {
  readonly answers: ReadonlyArray<Answer>
  readonly confirmed: ReadonlyArray<Confirmed>
  readonly held: ReadonlyArray<string>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How soon a 503 is retried: sooner than `Retry-After` (1 s), so the window is measured to a quarter second. */
const retryAfter503Ms = 250

interface Reply {
  readonly status: number
  readonly body: Record<string, unknown>
}

const errorCode = (body: Record<string, unknown>): string | undefined => {
  const error = body["error"]
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined
}

const dayOf = (epochDay: number) => new Date(epochDay * 86_400_000).toISOString().slice(0, 10)

/**
 * A stay of `nights` starting on one of `days` nights from `first` (epoch days): a short range makes holds
 * compete for the rooms, a long one keeps rooms to sell for the whole drill.
 */
const stay = (nights: number, first = Date.UTC(2031, 1, 1) / 86_400_000, days = 25) => {
  const start = first + Math.floor(Math.random() * days)
  return { check_in: dayOf(start), check_out: dayOf(start + nights) }
}

export const runLoad = async (demo: Demo, durationMs: number, onTick: (elapsedMs: number) => void): Promise<LoadResult> => {
  const answers: Array<Answer> = []
  const confirmed: Array<Confirmed> = []
  const held: Array<string> = []
  const started = Date.now()
  const until = started + durationMs
  // A write already started is finished (retried) for this much longer, so every 2xx is known.
  const writeDeadline = until + 45_000

  const send = async (kind: Kind, method: string, path: string, body?: unknown, key?: string): Promise<Reply> => {
    const sentAt = Date.now()
    try {
      const res = await fetch(`${demo.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${demo.key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(key === undefined ? {} : { "idempotency-key": key })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(60_000)
      })
      const text = await res.text()
      const parsed = text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {}
      answers.push({ kind, sentAt, answeredAt: Date.now(), status: res.status, code: errorCode(parsed) })
      return { status: res.status, body: parsed }
    } catch {
      answers.push({ kind, sentAt, answeredAt: Date.now(), status: 0, code: undefined })
      return { status: 0, body: {} }
    }
  }

  /** A write with its key, sent again after 503 (or no answer) until it is answered otherwise. */
  const write = async (kind: Kind, path: string, body: unknown): Promise<Reply> => {
    const key = globalThis.crypto.randomUUID()
    for (;;) {
      const reply = await send(kind, "POST", path, body, key)
      if ((reply.status !== 503 && reply.status !== 0) || Date.now() > writeDeadline) return reply
      await sleep(retryAfter503Ms)
    }
  }

  const booker = async () => {
    while (Date.now() < until) {
      const guest = await write("guest", "/guests", {
        first_name: "Drill",
        last_name: "Guest",
        email: `drill-${globalThis.crypto.randomUUID()}@example.com`
      })
      if (guest.status !== 201) continue
      // The suites (2 rooms, 2 nights at least) sell out in February: holds compete for the last ones. The
      // doubles (8 rooms) over two years keep selling, so confirms go on before, during and after the kill.
      const roomType = Math.random() < 0.3 ? "STE" : "DBL"
      const hold = await write("hold", "/holds", {
        room_type_id: demo.roomTypes[roomType],
        rate_plan_id: demo.ratePlans[`BAR-${roomType}`],
        ...(roomType === "STE"
          ? stay(2 + Math.floor(Math.random() * 2))
          : stay(1 + Math.floor(Math.random() * 3), Date.UTC(2031, 2, 1) / 86_400_000, 700)),
        guest_id: guest.body["guest_id"],
        adults: 2
      })
      if (hold.status !== 201) continue
      const reservationId = String(hold.body["reservation_id"])
      held.push(reservationId)
      const paymentReference = `pay_${globalThis.crypto.randomUUID()}`
      const confirm = await write("confirm", `/holds/${reservationId}/confirm`, { payment_reference: paymentReference })
      if (confirm.status === 200) confirmed.push({ reservationId, paymentReference, answeredAt: Date.now() })
      await send("reservation", "GET", `/reservations/${reservationId}`)
    }
  }

  const reader = (kind: "quote" | "availability") => async () => {
    while (Date.now() < until) {
      const { check_in, check_out } = stay(2)
      const path = kind === "quote"
        ? `/rates?check_in=${check_in}&check_out=${check_out}&adults=2`
        : `/availability?start_date=${check_in}&end_date=${check_out}`
      const reply = await send(kind, "GET", path)
      // About 15 reads a second each: a steady load, not a benchmark of a shared machine.
      await sleep(reply.status === 200 ? 60 : retryAfter503Ms)
    }
  }

  /** The catalogue and the rate plans in turn, as a booking engine refreshes them. */
  const browser = async () => {
    const paths: ReadonlyArray<readonly [Kind, string]> = [
      ["catalogue", "/property"], ["catalogue", "/room-types"], ["catalogue", "/services"], ["rate_plans", "/rate-plans"]
    ]
    for (let i = 0; Date.now() < until; i++) {
      const [kind, path] = paths[i % paths.length] ?? ["catalogue", "/property"]
      const reply = await send(kind, "GET", path)
      await sleep(reply.status === 200 ? 120 : retryAfter503Ms)
    }
  }

  const ticker = setInterval(() => onTick(Date.now() - started), 250)
  try {
    await Promise.all([
      booker(), booker(), booker(), reader("quote")(), reader("quote")(), reader("availability")(), browser()
    ])
  } finally {
    clearInterval(ticker)
  }
  return { answers, confirmed, held }
}
