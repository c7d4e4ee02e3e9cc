import { expect, layer } from "@effect/vitest"
import { Money, Pricing } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import * as fc from "fast-check"
import { allEvents, type EventWire } from "../events/feed.js"
import { propertyFile } from "../utils/fixtures.js"
import { insertGuest } from "../utils/sqlSeed.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// A refund is paid once, over random sequences through the API: a hold, its confirm, changes that lengthen,
// shorten or move the stay (each followed by paying what it left owing, half of it, or nothing), then a cancel,
// in a currency and at a refund percent drawn once per run. After each change the folio's balance in the stay's
// currency is the change's `amount_due`, as its quote and its event said; after the cancel the refunds and the
// fees kept (`change_fee`, `cancellation_fee`) are exactly the payments, and the refunds are what a cancel at
// once would have refunded (less at most one minor unit per step that refunded, each rounding down).

const CURRENCIES = ["EUR", "USD", "JPY", "KWD"] as const
const PERCENTS = [0, 30, 50, 100] as const
/** Nightly prices with odd minor units, so VAT, city tax conversion and refund percentages all round. */
const PRICE: Record<(typeof CURRENCIES)[number], string> = { EUR: "123.45", USD: "97.13", JPY: "15321", KWD: "45.127" }
const TODAY = "2031-01-10"
const FIRST_ARRIVAL = "2031-03-01"

/** One room type of 40 rooms; a plan per currency and refund percent, whose one tier applies up to arrival. */
const moneyProperty = (code: string) => ({
  ...propertyFile(code),
  currencies: [
    { currency: "USD", rate_to_base: "0.920000" },
    { currency: "JPY", rate_to_base: "0.006100" },
    { currency: "KWD", rate_to_base: "2.990000" }
  ],
  room_types: [{ code: "R", name: "Room", base_occupancy: 2, max_occupancy: 3, bed_configs: ["king"], rooms: Array.from({ length: 40 }, (_, i) => `R-${i + 1}`) }],
  rate_plans: CURRENCIES.flatMap((currency) =>
    PERCENTS.map((percent) => ({
      code: planCode(currency, percent),
      default: currency === "EUR" && percent === 0,
      room_type: "R",
      name: `${currency} ${percent}%`,
      base_price: PRICE[currency],
      currency,
      active_for_booking_engine: true,
      active_for_channels: true,
      cancellation_policy: [{ days_before_arrival: 0, refund_percent: percent }]
    }))
  )
})

const planCode = (currency: string, percent: number) => `P${percent}-${currency}`

type Change =
  | { readonly kind: "lengthen"; readonly nights: number }
  | { readonly kind: "shorten"; readonly nights: number }
  | { readonly kind: "move"; readonly days: number }

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("lengthen" as const), nights: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("shorten" as const), nights: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("move" as const), days: fc.integer({ min: -4, max: 6 }).filter((n) => n !== 0) })
)

const run = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  percent: fc.constantFrom(...PERCENTS),
  arrival: fc.integer({ min: 0, max: 60 }),
  nights: fc.integer({ min: 1, max: 5 }),
  steps: fc.array(fc.record({ change, pay: fc.constantFrom("nothing", "due", "half") }), { minLength: 1, maxLength: 4 })
})

type Run = typeof run extends fc.Arbitrary<infer A> ? A : never

/** The stay's dates after `c` (a shorter stay keeps at least one night; a move keeps its length). */
const applied = (stay: { checkIn: string; checkOut: string }, c: Change) => {
  const nights = Pricing.daysBetween(stay.checkIn, stay.checkOut)
  switch (c.kind) {
    case "lengthen":
      return { checkIn: stay.checkIn, checkOut: Pricing.addDays(stay.checkOut, c.nights) }
    case "shorten":
      return { checkIn: stay.checkIn, checkOut: Pricing.addDays(stay.checkIn, Math.max(1, nights - c.nights)) }
    case "move":
      return { checkIn: Pricing.addDays(stay.checkIn, c.days), checkOut: Pricing.addDays(stay.checkOut, c.days) }
  }
}

layer(TestApiLive)("a refund is paid once (property, through the API)", (it) => {
  it.effect("in every currency: after each change the balance is its amount_due; after the cancel refunds and fees are the payments", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(Date.parse(`${TODAY}T10:00:00Z`))
      const imported = yield* api.importProperty(moneyProperty(`M${globalThis.crypto.randomUUID().slice(0, 8).toUpperCase()}`))
      const key = yield* api.createKey({ propertyId: imported.property_id })
      const client = yield* api.clientFor(key)
      const guest = yield* insertGuest(api.sql, imported.property_id)
      const context = yield* Effect.context<never>()
      const minor = (amount: string, currency: string) => Money.toMinorFloor(Money.fromDb(amount), currency)
      const lastEvent = Effect.map(allEvents(api, key), (events): EventWire | undefined => events.at(-1))

      const scenario = (input: Run) =>
        Effect.gen(function*() {
          const { currency, percent } = input
          const label = JSON.stringify(input)
          let stay = { checkIn: Pricing.addDays(FIRST_ARRIVAL, input.arrival), checkOut: Pricing.addDays(FIRST_ARRIVAL, input.arrival + input.nights) }
          const held = yield* client.holds.create({ headers: {},
            payload: {
              room_type_id: imported.room_types["R"],
              rate_plan_id: imported.rate_plans[planCode(currency, percent)],
              guest_id: guest,
              adults: 2,
              check_in: stay.checkIn,
              check_out: stay.checkOut
            }
          })
          const id = held.reservation_id
          const payments: Array<bigint> = [minor(held.total, currency)]
          const reference = () => `pay_${globalThis.crypto.randomUUID()}`
          yield* client.holds.confirm({ headers: {}, params: { id }, payload: { payment_reference: reference(), payment_amount: held.total } })
          let refundingSteps = 0
          for (const step of input.steps) {
            const next = applied(stay, step.change)
            // A shorter stay keeps one night: a one-night stay "shortened" is no change at all.
            if (next.checkIn === stay.checkIn && next.checkOut === stay.checkOut) continue
            stay = next
            const target = { check_in: stay.checkIn, check_out: stay.checkOut }
            const quote = yield* client.changeQuote.get({ params: { id }, query: target })
            expect(quote.bookable, label).toBe(true)
            const before = yield* lastEvent
            const changed = yield* client.reservationChanges.change({ params: { id }, payload: target, headers: {} })
            const balance = changed.balances.find((entry) => entry.currency === currency)?.balance
            expect(balance, label).toBe(quote.amount_due)
            const events = yield* allEvents(api, key, { ...(before === undefined ? {} : { after: before.id }), types: "reservation.changed" })
            expect(events.map((e) => [e.data["amount_due"], e.data["refund_due_minor"]]), label)
              .toEqual([[quote.amount_due, quote.refund_due_minor]])
            const folio = yield* client.folios.get({ params: { id: changed.folio_id } })
            expect(folio.balances.find((entry) => entry.currency === currency)?.balance, label).toBe(quote.amount_due)
            if (quote.refund_due_minor > 0 || folio.lines.at(-1)?.kind === "change_fee") refundingSteps++
            const due = minor(quote.amount_due, currency)
            const paid = step.pay === "due" ? due : step.pay === "half" ? due / 2n : 0n
            if (paid > 0n) {
              const amount = Money.format(Money.fromMinor(paid, currency), currency)
              yield* client.payments.create({ headers: {}, params: { id }, payload: { payment_reference: reference(), amount, currency } })
              payments.push(paid)
            }
          }
          const before = yield* lastEvent
          const cancelled = yield* client.reservationActions.cancel({ headers: {}, params: { id }, payload: {} })
          const events = yield* allEvents(api, key, { ...(before === undefined ? {} : { after: before.id }), types: "reservation.cancelled" })
          expect(events.map((e) => e.data["refund_due_minor"]), label).toEqual([cancelled.refund_due_minor])
          const folio = yield* client.folios.get({ params: { id: held.folio_id } })
          const sumOf = (...kinds: Array<string>) =>
            folio.lines.filter((l) => kinds.includes(l.kind)).reduce((sum, l) => sum + minor(l.amount, currency), 0n)
          const paidInAll = payments.reduce((sum, p) => sum + p, 0n)
          expect(sumOf("payment"), label).toBe(paidInAll)
          expect(sumOf("refund", "change_fee", "cancellation_fee"), label).toBe(paidInAll)
          expect(folio.balances.find((entry) => entry.currency === currency)?.balance, label).toBe(Money.format(Money.zero, currency))
          const cancelRefund = folio.lines.filter((l) => l.kind === "refund" && l.description.startsWith("Refund due on cancellation"))
          expect(cancelled.refund_due_minor, label).toBe(cancelRefund.reduce((sum, l) => sum + Number(minor(l.amount, currency)), 0))
          const atOnce = paidInAll * BigInt(percent) / 100n
          const refunded = sumOf("refund")
          expect(refunded <= atOnce && refunded >= atOnce - BigInt(refundingSteps), `${label}: ${refunded} of ${atOnce}`).toBe(true)
          if (percent === 0 || percent === 100) expect(refunded, label).toBe(atOnce)
        })

      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(run, (input) => Effect.runPromiseWith(context)(scenario(input))),
          { numRuns: 20, endOnFailure: true }
        )
      )
    }), { timeout: 120_000 })
})
