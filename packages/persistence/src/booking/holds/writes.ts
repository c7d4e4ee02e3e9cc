// The rows a hold writes, in the caller's transaction: the reservation (with a fresh confirmation code), its folio
// with the quote's lines, and its accommodation, entitlements and add-ons.
import type * as SqlClient from "@effect/sql/SqlClient"
import { Booking, Money, type Pricing, type Visibility } from "@hotel/domain"
import * as Effect from "effect/Effect"
import type { SnapshotPlan } from "../../quotes/PricingInputs.js"
import type { HoldActor, HoldRequest } from "./requests.js"

/** How many fresh confirmation codes a hold tries before giving up (a collision is ~1 in 10^12). */
const codeAttempts = 5

const newConfirmationCode = Effect.sync(() =>
  Booking.confirmationCodeFrom(globalThis.crypto.getRandomValues(new Uint8Array(Booking.codeLength)))
)

/** What a hold decided to write on its reservation row. */
export interface ReservationFields {
  readonly plan: SnapshotPlan
  readonly quote: Pricing.Quote
  readonly children: number
  readonly promo: Visibility.PromoCodeState | null
  readonly holdExpiresAt: Date
  readonly policy: ReadonlyArray<Pricing.CancellationTier>
  readonly now: Date
}

export const insertReservation = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: HoldRequest,
  fields: ReservationFields
) =>
  Effect.gen(function*() {
    const { now, plan, quote } = fields
    const policy = JSON.stringify(
      fields.policy.map((tier) => ({ days_before_arrival: tier.daysBeforeArrival, refund_percent: tier.refundPercent }))
    )
    for (let attempt = 0; attempt < codeAttempts; attempt++) {
      const code = yield* newConfirmationCode
      const rows = yield* sql<{ id: string }>`
        INSERT INTO reservations (
          property_id, confirmation_code, guest_id, room_type_id, rate_plan_id, status, check_in_date,
          check_out_date, adults, children, child_ages, currency, nightly_rate, total, room_revenue, bed_config,
          booking_source, special_notes, promo_code_id, promo_code, api_key_id, hold_expires_at,
          cancellation_policy, created_at, updated_at)
        VALUES (
          ${actor.propertyId}, ${code}, ${request.guestId}, ${request.roomTypeId}, ${plan.id}, 'tentative',
          ${request.checkIn}, ${request.checkOut}, ${request.adults}, ${fields.children},
          ${request.childAges === null ? null : [...request.childAges]}::integer[], ${quote.currency},
          ${Money.toDb(quote.nightlyRate)}, ${Money.toDb(quote.total)}, ${Money.toDb(quote.roomRevenue)},
          ${request.bedConfig}, ${actor.salesContext}, ${request.specialNotes}, ${fields.promo?.id ?? null},
          ${fields.promo?.code ?? null}, ${actor.apiKeyId}, ${fields.holdExpiresAt}, ${policy}::jsonb, ${now},
          ${now})
        ON CONFLICT (confirmation_code) DO NOTHING
        RETURNING id`
      const row = rows[0]
      if (row !== undefined) return { id: row.id, code }
    }
    return yield* Effect.dieMessage(`no free confirmation code after ${codeAttempts} attempts`)
  })

/** The folio with the quote's lines, in order, every one in the stay currency at the frozen rate. */
export const insertFolio = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  reservationId: string,
  quote: Pricing.Quote,
  now: Date
) =>
  Effect.gen(function*() {
    const [folio] = yield* sql<{ id: string }>`
      INSERT INTO folios (property_id, reservation_id, currency, status, created_at)
      VALUES (${propertyId}, ${reservationId}, ${quote.currency}, 'open', ${now})
      RETURNING id`
    const rate = quote.exchangeRate === null ? null : Money.toDb(quote.exchangeRate)
    if (quote.lines.length > 0) {
      yield* sql`INSERT INTO folio_lines ${
        sql.insert(quote.lines.map((line, position) => ({
          folio_id: folio.id,
          position,
          kind: line.kind,
          description: line.description,
          amount: Money.toDb(line.amount),
          currency: quote.currency,
          exchange_rate: rate,
          revenue_category: line.revenueCategory,
          service_id: line.serviceId ?? null,
          quantity: line.quantity ?? null,
          created_at: now
        })))
      }`
    }
    return folio.id
  })

export const insertDetails = (
  sql: SqlClient.SqlClient,
  reservationId: string,
  request: HoldRequest,
  quote: Pricing.Quote,
  modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>,
  now: Date
) =>
  Effect.gen(function*() {
    // The stay's one accommodation leg; a room is assigned at check-in.
    yield* sql`
      INSERT INTO accommodations (reservation_id, room_type_id, room_id, check_in_date, check_out_date, status,
                                  nightly_rate)
      VALUES (${reservationId}, ${request.roomTypeId}, NULL, ${request.checkIn}, ${request.checkOut},
              'tentative', ${Money.toDb(quote.nightlyRate)})`
    if (quote.entitlements.length > 0) {
      yield* sql`INSERT INTO entitlements ${
        sql.insert(quote.entitlements.map((entitlement, position) => ({
          reservation_id: reservationId,
          label: entitlement.label,
          inclusion_kind: entitlement.inclusionKind,
          revenue_category: entitlement.revenueCategory,
          service_item_id: entitlement.serviceItemId,
          currency: entitlement.currency,
          quantity: entitlement.quantity,
          allowance: Money.toDb(entitlement.allowance),
          position
        })))
      }`
    }
    if (request.addOns.length > 0) {
      yield* sql`INSERT INTO reservation_add_ons ${
        sql.insert(request.addOns.map((addOn, position) => ({
          reservation_id: reservationId,
          position,
          service_id: addOn.serviceId,
          quantity: addOn.quantity,
          modifier_values: JSON.stringify(modifierValues[position] ?? {}),
          created_at: now
        })))
      }`
    }
  })
