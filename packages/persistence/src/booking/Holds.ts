import * as SqlClient from "@effect/sql/SqlClient"
import {
  Booking,
  Cancellation,
  GuestNotFound,
  isUuid,
  PartyTooLarge,
  Pricing,
  RatePlanNotFound,
  RoomTypeNotFound
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { bookableQuote, checkDependentFields, frozenPromoCode, servicesOf } from "./holds/checks.js"
import type { HoldActor, HoldCreated, HoldError, HoldRequest } from "./holds/requests.js"
import { checkHoldLimits } from "./holds/limits.js"
import { insertDetails, insertFolio, insertReservation, type ReservationFields } from "./holds/writes.js"
import { Inventory } from "../quotes/Inventory.js"
import { PricingInputs, type PricingSnapshot } from "../quotes/PricingInputs.js"
import { offerFor, type StayQuery, validateStay } from "../quotes/QuoteService.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { appendStayChange, type EventOutbox } from "../events/EventOutbox.js"
import * as Metric from "effect/Metric"
import { countNoAvailability, holdsCreated } from "./BookingMetrics.js"

// `POST /holds` (interface 4.5): one transaction per hold. It first locks the requested room type's row
// (`FOR NO KEY UPDATE`: holds of one room type run one at a time, holds of different room types never wait on
// each other, and foreign-key checks of other writers are not blocked), then, when a promo code is sent, the
// plan chain's codes (`PricingInputs.lockPromoCodes`, in id order). Only then does it load the pricing
// snapshot (with this guest's redemptions), count the taken nights (`Inventory`, at `now` from `Clock`) and
// write. Lock order is always room type → promo codes → guest → API key (the live-hold caps, ./holds/limits.ts),
// so holds cannot deadlock each other.
//
// Order of checks (decisions 1): field rules of the stay (400 `check_out` / `check_in`) → referenced ids (404
// room type, rate plan, guest, each add-on's service) → rules on fields that need those resources (400
// `bed_config`, `add_ons[i].service_id` for a service that is not guest-bookable, `add_ons[i].modifier_values.k`)
// → live-hold caps (409 `hold_limit_reached`) → `party_too_large` → visibility (404 `rate_plan_not_found`)
// → availability (409 `no_availability`).
//
// Pricing is the quote's own path (`offerFor` → `stayRequestFor` → `priceStay`), so a hold without add-ons
// writes exactly the lines `GET /rates` showed, and add-ons only add lines. The request types, the snapshot
// checks and the writes are in ./holds/.

export { frozenPromoCode } from "./holds/checks.js"
export type { HoldActor, HoldAddOnRequest, HoldCreated, HoldError, HoldRequest } from "./holds/requests.js"

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

    /** Locks first (room type, then the plan chain's codes), so everything loaded after is read under them. */
    const lockAndLoad = (actor: HoldActor, request: HoldRequest, now: Date) =>
      Effect.gen(function*() {
        if (isUuid(request.roomTypeId)) yield* lockRoomType(actor.propertyId, request.roomTypeId)
        if (request.promoCode !== null && request.promoCode !== "") {
          yield* inputs.lockPromoCodes(actor.propertyId, request.ratePlanId)
        }
        return yield* inputs.loadForPlan(actor.propertyId, request.ratePlanId, now, {
          guestId: request.guestId
        }).pipe(Effect.flatMap(keyPropertyExists(actor.propertyId)))
      })

    /** The request against the snapshot, in the contract's order up to `party_too_large`. */
    const resolve = (actor: HoldActor, request: HoldRequest, snapshot: PricingSnapshot, stay: StayQuery, now: Date) =>
      Effect.gen(function*() {
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
        yield* checkHoldLimits(sql, actor, request.guestId, now)

        if (Pricing.partySize(stay.party) > roomType.maxOccupancy) {
          return yield* new PartyTooLarge({
            message: `A party of ${Pricing.partySize(stay.party)} exceeds the room type's maximum occupancy of ${roomType.maxOccupancy}`
          })
        }
        return { roomType, plan, services, modifierValues }
      })

    const write = (
      actor: HoldActor,
      request: HoldRequest,
      fields: ReservationFields,
      modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>
    ) =>
      Effect.gen(function*() {
        const reservation = yield* insertReservation(sql, actor, request, fields)
        const folioId = yield* insertFolio(sql, actor.propertyId, reservation.id, fields.quote, fields.now)
        yield* insertDetails(sql, reservation.id, request, fields.quote, modifierValues, fields.now)
        yield* appendStayChange(actor.propertyId, "reservation.held", reservation, {
          roomTypeId: request.roomTypeId,
          checkIn: request.checkIn,
          checkOut: request.checkOut
        })
        return {
          reservationId: reservation.id,
          folioId,
          confirmationCode: reservation.code,
          holdExpiresAt: fields.holdExpiresAt,
          total: fields.quote.total,
          currency: fields.quote.currency
        }
      })

    const create = (actor: HoldActor, request: HoldRequest): Effect.Effect<HoldCreated, HoldError, EventOutbox> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const snapshot = yield* lockAndLoad(actor, request, now)
        const party: Pricing.Party = { adults: request.adults, children: request.children, childAges: request.childAges }
        const stay: StayQuery = { checkIn: request.checkIn, checkOut: request.checkOut, party, promoCode: request.promoCode }
        const { modifierValues, plan, roomType, services } = yield* resolve(actor, request, snapshot, stay, now)
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
        const quote = bookableQuote(offer, plan, roomType, request)
        if (Either.isLeft(quote)) return yield* quote.left
        return yield* write(actor, request, {
          plan,
          quote: quote.right,
          children: Pricing.childCount(party),
          promo: frozenPromoCode(snapshot, plan, request.promoCode),
          holdExpiresAt: Booking.holdExpiresAt(now),
          policy: Cancellation.policyFor(plan.model, snapshot.property.pricing),
          now
        }, modifierValues)
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap(() => Metric.increment(holdsCreated)),
        countNoAvailability,
        Effect.withSpan("Holds.create")
      )

    return { create } as const
  }),
  dependencies: [PricingInputs.Default, Inventory.Default]
}) {}
