import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { isExclusionViolation } from "../database/ConstraintViolation.js"
import { Booking, Changes, Money, NoAvailability, type Pricing } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { arrayOf } from "../database/ArrayParameter.js"
import * as BigDecimal from "effect/BigDecimal"
import { rateToBase } from "../folios/FolioLines.js"
import { addLedgerEntry } from "../guests/LoyaltyLedger.js"
import { EventOutbox, type PendingEvent } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import type { ReservationView } from "../booking/ReservationView.js"
import type { SnapshotPlan, SnapshotRoomType } from "../quotes/PricingInputs.js"
import { assignedAccommodation, assignedReservation } from "../booking/stayRows.js"
import type { ChangeFacts } from "./ChangeFacts.js"
import type { ChangeOutcome } from "./decide.js"

type Restay = Changes.Restay<SnapshotPlan, SnapshotRoomType>

// The writes of a change, in the change's transaction under its locks: the reservation and its accommodation
// take the new terms; when the price changed the folio gets one `reversal` line per priced line of the previous
// stay and the new stay's lines, then the `change_fee` and the `refund` of what was paid towards the stay above
// the new total (lines are only ever appended); the loyalty earn follows the
// new room revenue; then `reservation.changed` and one `availability.changed` per room type whose nights changed.

/** A line to append with its currency and the exchange rate frozen on it. */
interface Posting {
  readonly line: Changes.ChangeLine
  readonly currency: string
  readonly exchangeRate: string | null
}

/** Appends the lines after the folio's last line, in order, in one statement. */
const appendLines = (sql: SqlClient.SqlClient, folioId: string, postings: ReadonlyArray<Posting>, now: Date) => {
  const lines = postings.map((p) => p.line)
  return postings.length === 0 ? Effect.void : sql`
    INSERT INTO folio_lines (folio_id, position, kind, description, amount, currency, exchange_rate, revenue_category,
                             service_id, quantity, night, applies_to_line_id, created_at)
    SELECT ${folioId}, (SELECT COALESCE(max(position) + 1, 0) FROM folio_lines WHERE folio_id = ${folioId}) + x.i,
           x.kind, x.description, x.amount, x.currency, x.exchange_rate, x.revenue_category, x.service_id,
           x.quantity, x.night, x.reverses, ${now}
    FROM unnest(
      ${lines.map((_, i) => i)}::integer[], ${lines.map((l) => l.kind)}::text[], ${lines.map((l) => l.description)}::text[],
      ${lines.map((l) => Money.toDb(l.amount))}::numeric[], ${postings.map((p) => p.currency)}::text[],
      ${arrayOf("numeric", postings.map((p) => p.exchangeRate))}::numeric[], ${lines.map((l) => l.revenueCategory)}::text[],
      ${arrayOf("uuid", lines.map((l) => l.serviceId))}::uuid[], ${arrayOf("integer", lines.map((l) => l.quantity))}::integer[],
      ${arrayOf("date", lines.map((l) => l.night))}::date[], ${arrayOf("uuid", lines.map((l) => l.reverses))}::uuid[]
    ) AS x(i, kind, description, amount, currency, exchange_rate, revenue_category, service_id, quantity, night, reverses)`
    .pipe(Effect.asVoid)
}

/**
 * A checked-in stay keeps its room: when a longer stay's new nights in that room are another checked-in stay's
 * (the rooms' exclusion constraint says so), the change is 409 `no_availability` although the room type may
 * have another room free.
 */
const roomTaken = (error: SqlError): Effect.Effect<never, SqlError | NoAvailability> => {
  return isExclusionViolation(error, "accommodations_room_not_doubled")
    ? Effect.fail(new NoAvailability({ message: "The room this stay is in is taken on the new nights" }))
    : Effect.fail(error)
}

/** A re-priced stay to write: the facts it was decided on, the outcome, the quote booked and its nights' overbooking. */
interface RestayWrite {
  readonly facts: ChangeFacts
  readonly outcome: ChangeOutcome
  readonly restay: Restay
  readonly quote: Pricing.Quote
  readonly heldOverbooking: ReadonlyArray<number>
  readonly now: Date
}

/**
 * The reservation, its accommodation (and a hold's folio currency) on the new terms and price, written by the
 * stay's one writer (../booking/stayRows.ts) from the record a hold writes too; the policy frozen is replaced
 * only when the plan changes.
 */
const updateStay = (sql: SqlClient.SqlClient, write: RestayWrite) => {
  const { facts, heldOverbooking, now, quote, restay } = write
  const { target } = write.outcome.planned
  const record = Booking.stayRecord(restay.catalogue, restay.checked, quote, {
    blockId: restay.blockId,
    heldOverbooking,
    keepPolicy: target.ratePlanId === facts.reservation.terms.ratePlanId
  })
  return Effect.all([
    sql`
      UPDATE reservations
      SET ${assignedReservation(sql, record, [["special_notes", sql`${target.specialNotes}`], ["updated_at", sql`${now}`]])}
      WHERE id = ${facts.row.id}`,
    sql`
      UPDATE accommodations SET ${assignedAccommodation(sql, record)}
      WHERE reservation_id = ${facts.row.id}`.pipe(Effect.catchTag("SqlError", roomTaken)),
    sql`UPDATE folios SET currency = ${quote.currency} WHERE id = ${facts.row.folio_id}`
  ], { discard: true })
}

/** A line of the change's money (its fee or its refund), on no night and of no service. */
const moneyLine = (kind: "change_fee" | "refund", description: string, amount: Money.Amount): Changes.ChangeLine => ({
  kind,
  description,
  amount,
  revenueCategory: null,
  serviceId: null,
  quantity: null,
  night: null,
  reverses: null
})

/**
 * The folio lines of a re-priced stay: the reversals (each in its line's currency at the rate frozen on it, so
 * a line and its reversal cancel out in every figure) and the new lines at today's rate, unless the price is the
 * same; then the money of the change at today's rate, the change fee and the refund, whenever above zero (an
 * overpaid stay re-priced at the same price settles its excess too), so the balance is the change's amount due.
 */
const postingsOf = (facts: ChangeFacts, outcome: ChangeOutcome, quote: Pricing.Quote, rate: string | null): ReadonlyArray<Posting> => {
  const { lines } = facts.reservation
  const { settlement } = outcome
  const money = [
    ...(BigDecimal.isPositive(settlement.changeFee)
      ? [moneyLine("change_fee", Changes.changeFeeDescription(settlement.refundPercent), settlement.changeFee)]
      : []),
    ...(BigDecimal.isPositive(settlement.refund)
      ? [moneyLine("refund", Changes.changeRefundDescription(settlement.refundPercent), settlement.refund)]
      : [])
  ]
  const today = (line: Changes.ChangeLine): Posting => ({ line, currency: quote.currency, exchangeRate: rate })
  if (Changes.samePrice(lines, quote.lines)) return money.map(today)
  const original = new Map(facts.row.lines.map((line) => [line.id, line]))
  return [
    ...Changes.reversalLines(lines).map((line) => {
      const reversed = line.reverses === null ? undefined : original.get(line.reverses)
      return { line, currency: reversed?.currency ?? quote.currency, exchangeRate: reversed?.exchange_rate ?? null }
    }),
    ...[...Changes.newStayLines(quote.lines), ...money].map(today)
  ]
}

/** One `availability.changed` per room type whose taken nights changed, spanning its old and new nights. */
export const availabilityEvents = (current: Changes.StayTerms, target: Changes.StayTerms): ReadonlyArray<PendingEvent> => {
  const event = (roomTypeId: string, from: string, to: string): PendingEvent => ({
    type: "availability.changed",
    subject: Subject.availability(roomTypeId, from, to)
  })
  if (current.roomTypeId !== target.roomTypeId) {
    return [event(current.roomTypeId, current.checkIn, current.checkOut), event(target.roomTypeId, target.checkIn, target.checkOut)]
  }
  if (current.checkIn === target.checkIn && current.checkOut === target.checkOut) return []
  const from = current.checkIn < target.checkIn ? current.checkIn : target.checkIn
  const to = current.checkOut > target.checkOut ? current.checkOut : target.checkOut
  return [event(target.roomTypeId, from, to)]
}

/** A re-priced stay: the reservation's terms, the folio's lines, the loyalty adjustment. */
const writeStay = (sql: SqlClient.SqlClient, propertyId: string, write: RestayWrite) =>
  Effect.gen(function*() {
    const { facts, now, outcome, quote } = write
    const { step } = outcome.planned
    const row = facts.row
    yield* updateStay(sql, write)
    const rate = yield* rateToBase(sql, propertyId, quote.currency, row.base_currency)
    yield* appendLines(sql, row.folio_id, postingsOf(facts, outcome, quote, rate), now)
    const points = step === "hold"
      ? 0
      : Changes.loyaltyDifference(quote.currency, quote.roomRevenue, row.loyalty_points_per_usd, row.net_earned)
    if (points !== 0) {
      yield* addLedgerEntry(sql, { propertyId, guestId: row.guest_id, reservationId: row.id, kind: "adjustment", points }, now)
    }
  })

/**
 * Every write of a change that alters something, answering `answer` (the reservation as `GET` writes it, read
 * after the writes); `quote` is null when only the notes change. A re-priced stay
 * records each new night's overbooking as its availability was counted (`heldOverbooking`, in date order), as
 * a hold does; a night it kept, at least what it was held under (./rooms.ts).
 */
export const writeChange = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  facts: ChangeFacts,
  outcome: ChangeOutcome,
  quote: Pricing.Quote | null,
  heldOverbooking: ReadonlyArray<number>,
  now: Date,
  answer: Effect.Effect<ReservationView>
): Effect.Effect<ReservationView, SqlError | NoAvailability, EventOutbox> =>
  Effect.gen(function*() {
    const { target } = outcome.planned
    const row = facts.row
    const restay = outcome.planned.restay
    if (quote !== null && restay._tag === "Some") {
      yield* writeStay(sql, propertyId, { facts, outcome, restay: restay.value, quote, heldOverbooking, now })
    } else {
      yield* sql`UPDATE reservations SET special_notes = ${target.specialNotes}, updated_at = ${now} WHERE id = ${row.id}`
    }
    const { amountDue, refundDueMinor } = outcome.settlement
    // Rendered once, after the writes: the change's answer, and its event's data with what it left owing.
    const view = yield* answer
    const data = { ...view, refund_due_minor: Number(refundDueMinor), amount_due: Money.format(amountDue, outcome.currency) }
    const outbox = yield* EventOutbox
    yield* outbox.append(propertyId, [
      { type: "reservation.changed", subject: Subject.rendered(data) },
      ...availabilityEvents(facts.reservation.terms, target)
    ])
    return view
  })
