import * as SqlClient from "effect/sql/SqlClient"
import { Booking } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import type { BookingCreated, BookingError, BookingRequest } from "./bookings/requests.js"
import type { HoldActor, HoldRequest } from "./holds/requests.js"
import { lockStay } from "./stayLocks.js"
import { placeHold } from "./holds/place.js"
import { type Prepared, prepareHold } from "./holds/prepare.js"
import { holdEvents, type PlacedHold } from "./holds/writes.js"
import { Inventory } from "../inventory/Inventory.js"
import type { BlockRead } from "../blocks/BlockSql.js"
import { PricingInputs, staySpan } from "../quotes/PricingInputs.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { countNoAvailability, holdsCreated } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /bookings`: 1 to 10 rooms for one guest and one stay, held together in ONE transaction or not at all.
// Each room is a hold: it runs the two halves of `POST /holds` (./holds/: `prepareHold` on the pricing snapshot,
// `placeHold` under the locks), so it is priced, checked and written exactly as that hold would be; the
// booking adds only its own rules (`Booking.inRoom` names the room in a refusal, `checkOneCurrency`,
// `liveHoldsForRoom`: each earlier room of the booking is one more live hold for the caps).
//
// Order: every room's snapshot checks in room order (400 stay, 404s, 400 dependent fields), then one currency
// (400 `rooms[i].rate_plan_id`), then, under the locks, each room's caps, party, visibility and availability
// and its writes, in room order. The availability of a room is counted in the booking's transaction, so its
// earlier rooms of the same type count as taken: several rooms of one type need that many free rooms.
//
// Locks (`lockStay`, ./stayLocks.ts): the guest, a capped key, every room type of the booking, the rooms' blocks
// and, with a promo code, every plan's codes: a hold's locks for several rooms, so bookings and holds
// never wait on each other in a cycle. With a promo code the snapshots are loaded under the codes' locks, and a
// room with a code is checked again after the earlier rooms are written, so their redemptions count.

export type { BookingCreated, BookingError, BookingRequest, BookingRoomRequest } from "./bookings/requests.js"

const hasPromoCode = (request: HoldRequest) => request.promoCode !== null && request.promoCode !== ""
/** With a promo code or a block, a room is prepared under the locks. */
const preparedLate = (request: HoldRequest) => hasPromoCode(request) || request.blockId !== null

export class Bookings extends Context.Service<Bookings>()("@hotel/persistence/booking/Bookings", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    /** Room `index` prepared as `POST /holds` prepares a hold, its refusal naming the room. */
    const prepareRoom = (
      actor: HoldActor,
      hold: HoldRequest,
      index: number,
      now: Date,
      guestFound?: boolean,
      blocks?: ReadonlyMap<string, BlockRead>
    ) =>
      inputs.loadForPlan(actor.propertyId, hold.ratePlanId, now, staySpan(hold), { guestId: hold.guestId }).pipe(
        Effect.flatMap(keyPropertyExists(actor.propertyId)),
        Effect.flatMap((snapshot) =>
          prepareHold(actor, hold, snapshot, now, guestFound, hold.blockId === null ? undefined : blocks?.get(hold.blockId))
        ),
        Effect.mapError((error) => Booking.inRoom(index, error))
      )

    const prepareAll = (
      actor: HoldActor,
      holds: ReadonlyArray<HoldRequest>,
      now: Date,
      guestFound?: boolean,
      blocks?: ReadonlyMap<string, BlockRead>
    ) =>
      Effect.gen(function*() {
        const prepared = yield* Effect.forEach(holds, (hold, i) => prepareRoom(actor, hold, i, now, guestFound, blocks))
        yield* Effect.fromResult(Booking.checkOneCurrency(prepared.map((room) => room.plan.model.currency)))
        return prepared
      })

    const insertBooking = (actor: HoldActor, request: BookingRequest, currency: string, now: Date) =>
      Effect.map(
        sql<{ id: string }>`
          INSERT INTO bookings (property_id, guest_id, check_in_date, check_out_date, currency, created_at)
          VALUES (${actor.propertyId}, ${request.guestId}, ${request.checkIn}, ${request.checkOut}, ${currency}, ${now})
          RETURNING id`,
        (rows) => rows[0].id
      )

    /** Under the locks: each room placed as a hold, in room order; then their events. */
    const placeAll = (
      actor: HoldActor,
      request: BookingRequest,
      holds: ReadonlyArray<HoldRequest>,
      now: Date,
      early: ReadonlyArray<Prepared> | undefined
    ) =>
      Effect.gen(function*() {
        const withPromo = early === undefined
        const locks = yield* lockStay(sql, actor.propertyId, {
          guest: { guestId: request.guestId, apiKeyId: actor.apiKeyId },
          roomTypes: holds.map((hold) => hold.roomTypeId),
          blocks: holds.flatMap((hold) => hold.blockId === null ? [] : [hold.blockId]),
          promoCodesOf: withPromo ? holds.map((hold) => hold.ratePlanId) : [],
          now
        })
        const { blocks } = locks
        const { guestFound, live } = locks.guest
        const prepared = early ?? (yield* prepareAll(actor, holds, now, guestFound, blocks))
        const bookingId = yield* insertBooking(actor, request, prepared[0].plan.model.currency, now)
        const placed: Array<PlacedHold> = []
        for (const [i, hold] of holds.entries()) {
          // The redemptions of the booking's earlier rooms count against a code's caps like any live hold's.
          const room = withPromo && i > 0 && hasPromoCode(hold)
            ? yield* prepareRoom(actor, hold, i, now, guestFound, blocks)
            : prepared[i]
          placed.push(yield* placeHold(sql, inventory, actor, hold, room, Booking.liveHoldsForRoom(live, i), { id: bookingId, position: i }, {
            roomTypeName: locks.roomTypes.get(hold.roomTypeId)?.name ?? room.roomType.name
          }).pipe(
            Effect.mapError((error) => Booking.inRoom(i, error))
          ))
        }
        yield* Effect.flatMap(EventOutbox, (outbox) => outbox.append(actor.propertyId, holdEvents(placed)))
        const created: BookingCreated = {
          bookingId,
          holdExpiresAt: placed[0].created.holdExpiresAt,
          currency: placed[0].created.currency,
          total: Booking.bookingTotal(placed.map((hold) => hold.created.total)),
          reservations: placed.map((hold) => hold.created)
        }
        return created
      })

    /**
     * Without a promo code the rooms are checked and priced before the transaction (as a hold is); with one,
     * after the codes' locks, inside it.
     */
    const create = (actor: HoldActor, request: BookingRequest): Effect.Effect<BookingCreated, BookingError, EventOutbox> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const holds: ReadonlyArray<HoldRequest> = request.rooms.map((room) => ({
          ...room,
          guestId: request.guestId,
          checkIn: request.checkIn,
          checkOut: request.checkOut
        }))
        const early = holds.some(preparedLate) ? undefined : yield* prepareAll(actor, holds, now)
        return yield* placeAll(actor, request, holds, now, early).pipe(inTransaction(sql))
      }).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap((created) => Metric.update(holdsCreated, created.reservations.length)),
        countNoAvailability,
        withSpan("Bookings.create")
      )

    return { create } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([PricingInputs.layer, Inventory.layer]))
}

