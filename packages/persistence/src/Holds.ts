import * as SqlClient from "@effect/sql/SqlClient"
import {
  Booking,
  Cancellation,
  GuestNotFound,
  InvalidParameters,
  isUuid,
  Money,
  NoAvailability,
  PartyTooLarge,
  Pricing,
  RatePlanNotFound,
  RoomTypeNotFound,
  type SalesContext,
  ServiceNotFound,
  Visibility
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Inventory } from "./Inventory.js"
import { type PricingSnapshot, PricingInputs, type SnapshotPlan, type SnapshotService } from "./PricingInputs.js"
import { offerFor, type StayQuery, validateStay } from "./QuoteService.js"

// `POST /holds` (interface 4.5): one transaction per hold. It first locks the requested room type's row
// (`FOR NO KEY UPDATE`: holds of one room type run one at a time, holds of different room types never wait on
// each other, and foreign-key checks of other writers are not blocked), then, when a promo code is sent, the
// plan chain's codes (`PricingInputs.lockPromoCodes`, in id order). Only then does it load the pricing
// snapshot (with this guest's redemptions), count the taken nights (`Inventory`, at `now` from `Clock`) and
// write. Lock order is always room type → promo codes, so holds cannot deadlock each other.
//
// Order of checks (decisions 1): field rules of the stay (400 `check_out` / `check_in`) → referenced ids (404
// room type, rate plan, guest, each add-on's service) → rules on fields that need those resources (400
// `bed_config`, `add_ons[i].service_id` for a service that is not guest-bookable, `add_ons[i].modifier_values.k`)
// → `party_too_large` → visibility (404 `rate_plan_not_found`) → availability (409 `no_availability`).
//
// Pricing is the quote's own path (`offerFor` → `stayRequestFor` → `priceStay`), so a hold without add-ons
// writes exactly the lines `GET /rates` showed, and add-ons only add lines.

export interface HoldAddOnRequest {
  readonly serviceId: string
  readonly modifierValues: Readonly<Record<string, unknown>>
  readonly quantity: number
}

export interface HoldRequest {
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly checkIn: Pricing.IsoDate
  readonly checkOut: Pricing.IsoDate
  readonly guestId: string
  readonly adults: number
  readonly children: number
  /** When present, the authoritative child count. */
  readonly childAges: ReadonlyArray<number> | null
  readonly bedConfig: string | null
  readonly addOns: ReadonlyArray<HoldAddOnRequest>
  readonly promoCode: string | null
  readonly specialNotes: string | null
}

/** Who holds: the API key's property, id and sales context (the reservation's `booking_source`). */
export interface HoldActor {
  readonly propertyId: string
  readonly apiKeyId: string
  readonly salesContext: SalesContext
}

export interface HoldCreated {
  readonly reservationId: string
  readonly folioId: string
  readonly confirmationCode: string
  readonly holdExpiresAt: Date
  readonly total: Money.Amount
  readonly currency: string
}

export type HoldError =
  | InvalidParameters
  | RoomTypeNotFound
  | RatePlanNotFound
  | GuestNotFound
  | ServiceNotFound
  | PartyTooLarge
  | NoAvailability

/** How many fresh confirmation codes a hold tries before giving up (a collision is ~1 in 10^12). */
const codeAttempts = 5

const newConfirmationCode = Effect.sync(() =>
  Booking.confirmationCodeFrom(globalThis.crypto.getRandomValues(new Uint8Array(Booking.codeLength)))
)

/**
 * The promo code a hold freezes: the redeemable code sent for the nearest plan of the chain that requires
 * one (the booked plan first). A code sent for a plan that requires none is ignored (decisions 4) and not
 * recorded, so it is not counted as a redemption either.
 */
export const frozenPromoCode = (
  snapshot: PricingSnapshot,
  plan: SnapshotPlan,
  given: string | null
): Visibility.PromoCodeState | null => {
  if (given === null || given === "") return null
  for (let p: Pricing.RatePlan | null | undefined = plan.model; p != null; p = p.derivation?.parent) {
    if (!p.requiresPromoCode) continue
    const code = Visibility.redeemableCode(snapshot.promoCodes, p.id, given, snapshot.today)
    if (code !== undefined) return code
  }
  return null
}

const withPath = (index: number) => `add_ons[${index}]`

export class Holds extends Effect.Service<Holds>()("@hotel/persistence/Holds", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    const lockRoomType = (propertyId: string, roomTypeId: string) =>
      sql`SELECT id FROM room_types WHERE property_id = ${propertyId} AND id = ${roomTypeId} FOR NO KEY UPDATE`

    const guestExists = (propertyId: string, guestId: string) =>
      sql<{ id: string }>`SELECT id FROM guests WHERE property_id = ${propertyId} AND id = ${guestId}`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    /** Each add-on's service (404 for the first unknown one, in request order). */
    const servicesOf = (snapshot: PricingSnapshot, request: HoldRequest) =>
      Effect.forEach(request.addOns, (addOn) =>
        Option.match(Option.fromNullable(snapshot.servicesById.get(addOn.serviceId)), {
          onNone: () => Effect.fail(new ServiceNotFound({ message: `No service ${addOn.serviceId}` })),
          onSome: (service) => Effect.succeed(service)
        }))

    /** The rules on fields that need the room type and the services (400 with the field's path). */
    const checkDependentFields = (
      request: HoldRequest,
      bedConfigs: ReadonlyArray<string>,
      services: ReadonlyArray<SnapshotService>
    ): Effect.Effect<ReadonlyArray<Readonly<Record<string, unknown>>>, InvalidParameters> =>
      Effect.gen(function*() {
        if (request.bedConfig !== null && !bedConfigs.includes(request.bedConfig)) {
          const offered = bedConfigs.length === 0 ? "none" : bedConfigs.map((b) => `"${b}"`).join(", ")
          return yield* new InvalidParameters({
            message: `bed_config: the room type offers ${offered}`,
            param: "bed_config"
          })
        }
        const kept: Array<Readonly<Record<string, unknown>>> = []
        for (const [i, addOn] of request.addOns.entries()) {
          const service = services[i]
          if (!service.guestBookable) {
            return yield* new InvalidParameters({
              message: `${withPath(i)}.service_id: the service ${service.code} cannot be booked by guests`,
              param: `${withPath(i)}.service_id`
            })
          }
          const checked = Booking.checkModifierValues(
            service.modifiers,
            addOn.modifierValues,
            `${withPath(i)}.modifier_values`
          )
          if (Either.isLeft(checked)) return yield* checked.left
          kept.push(checked.right)
        }
        return kept
      })

    const insertReservation = (
      actor: HoldActor,
      request: HoldRequest,
      fields: {
        readonly plan: SnapshotPlan
        readonly quote: Pricing.Quote
        readonly children: number
        readonly promo: Visibility.PromoCodeState | null
        readonly holdExpiresAt: Date
        readonly policy: ReadonlyArray<Pricing.CancellationTier>
        readonly now: Date
      }
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
    const insertFolio = (propertyId: string, reservationId: string, quote: Pricing.Quote, now: Date) =>
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

    const insertDetails = (
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

    const create = (actor: HoldActor, request: HoldRequest): Effect.Effect<HoldCreated, HoldError> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        // Locks first (room type, then the plan chain's codes), so everything below is read under them.
        if (isUuid(request.roomTypeId)) yield* lockRoomType(actor.propertyId, request.roomTypeId)
        if (request.promoCode !== null && request.promoCode !== "") {
          yield* inputs.lockPromoCodes(actor.propertyId, request.ratePlanId)
        }
        const snapshot = yield* inputs.loadForPlan(actor.propertyId, request.ratePlanId, now, {
          guestId: request.guestId
        }).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.dieMessage(`property ${actor.propertyId} of a valid key is missing`),
            onSome: Effect.succeed
          }))
        )
        const party: Pricing.Party = { adults: request.adults, children: request.children, childAges: request.childAges }
        const stay: StayQuery = {
          checkIn: request.checkIn,
          checkOut: request.checkOut,
          party,
          promoCode: request.promoCode
        }
        yield* validateStay(stay, snapshot.today)

        const roomType = snapshot.roomTypesById.get(request.roomTypeId)
        if (roomType === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${request.roomTypeId}` })
        const plan = snapshot.plansById.get(request.ratePlanId)
        if (plan === undefined) return yield* new RatePlanNotFound({ message: `No rate plan ${request.ratePlanId}` })
        if (!(yield* guestExists(actor.propertyId, request.guestId))) {
          return yield* new GuestNotFound({ message: `No guest ${request.guestId}` })
        }
        const services = yield* servicesOf(snapshot, request)
        const modifierValues = yield* checkDependentFields(request, roomType.bedConfigs, services)

        if (Pricing.partySize(party) > roomType.maxOccupancy) {
          return yield* new PartyTooLarge({
            message: `A party of ${Pricing.partySize(party)} exceeds the room type's maximum occupancy of ${roomType.maxOccupancy}`
          })
        }

        const [stock] = yield* inventory.available(actor.propertyId, {
          roomTypeId: roomType.id,
          from: request.checkIn,
          to: request.checkOut,
          now
        })
        const offer = offerFor({
          snapshot,
          plan,
          roomTypeId: roomType.id,
          stay,
          salesContext: actor.salesContext,
          available: stock?.available ?? 0,
          addOns: request.addOns.map((addOn, i) => ({ service: services[i].model, quantity: addOn.quantity }))
        })
        if (Option.isNone(offer)) {
          return yield* new RatePlanNotFound({
            message: `Rate plan ${plan.id} is not offered for this room type, stay or sales context`
          })
        }
        const hidden = offer.value.reasons.filter((reason) => reason !== "sold_out")
        if (hidden.length > 0) {
          return yield* new RatePlanNotFound({
            message: `Rate plan ${plan.id} cannot be booked for this request (${hidden.join(", ")})`
          })
        }
        if (!offer.value.bookable || Option.isNone(offer.value.quote)) {
          return yield* new NoAvailability({
            message: `No ${roomType.name} is free on every night from ${request.checkIn} to ${request.checkOut}`
          })
        }
        const quote = offer.value.quote.value

        const holdExpiresAt = Booking.holdExpiresAt(now)
        const reservation = yield* insertReservation(actor, request, {
          plan,
          quote,
          children: Pricing.childCount(party),
          promo: frozenPromoCode(snapshot, plan, request.promoCode),
          holdExpiresAt,
          policy: Cancellation.policyFor(plan.model, snapshot.property.pricing),
          now
        })
        const folioId = yield* insertFolio(actor.propertyId, reservation.id, quote, now)
        yield* insertDetails(reservation.id, request, quote, modifierValues, now)
        return {
          reservationId: reservation.id,
          folioId,
          confirmationCode: reservation.code,
          holdExpiresAt,
          total: quote.total,
          currency: quote.currency
        }
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", Effect.die),
        Effect.withSpan("Holds.create")
      )

    return { create } as const
  }),
  dependencies: [PricingInputs.Default, Inventory.Default]
}) {}
