import * as SqlClient from "effect/sql/SqlClient"
import {
  GuestNotFound,
  type InsufficientPoints,
  InvalidParameters,
  isUuid,
  Loyalty as LoyaltyRules,
  ReservationNotFound
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { addLedgerEntry } from "./LoyaltyLedger.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /guests/{id}/loyalty/redemptions`: one transaction that locks the guest's row first
// (`FOR NO KEY UPDATE`: redemptions of one guest run one at a time, while the foreign-key checks of earns and
// reversals written for that guest are not blocked), then sums the ledger and writes the `redeem` entry
// (negative points). Two redemptions racing for the same points are serialised by the lock: the second sees
// the first's debit and is refused with 409 `insufficient_points`.
//
// Order of checks: the guest (404 `guest_not_found`) → the reservation when one is named (404
// `reservation_not_found`; 400 `invalid_parameters` on `reservation_id` when it is another guest's) → the
// balance (409 `insufficient_points`, also whenever the balance is negative).

export interface RedemptionRequest {
  readonly points: number
  readonly reservationId: string | null
}

export interface RedemptionResult {
  readonly redemptionId: string
  readonly guestId: string
  readonly reservationId: string | null
  readonly points: number
  /** The balance after the redemption. */
  readonly balance: number
}

export type RedemptionError = GuestNotFound | ReservationNotFound | InvalidParameters | InsufficientPoints

export class Loyalty extends Context.Service<Loyalty>()("@hotel/persistence/guests/Loyalty", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const redeem = (
      propertyId: string,
      guestId: string,
      request: RedemptionRequest
    ): Effect.Effect<RedemptionResult, RedemptionError, EventOutbox> =>
      Effect.gen(function*() {
        const notFound = new GuestNotFound({ message: `No guest ${guestId}` })
        if (!isUuid(guestId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [guest] = yield* sql<{ id: string }>`
          SELECT id FROM guests WHERE property_id = ${propertyId} AND id = ${guestId} FOR NO KEY UPDATE`
        if (guest === undefined) return yield* notFound

        if (request.reservationId !== null) {
          const [reservation] = yield* sql<{ guest_id: string }>`
            SELECT guest_id FROM reservations WHERE property_id = ${propertyId} AND id = ${request.reservationId}`
          if (reservation === undefined) {
            return yield* new ReservationNotFound({ message: `No reservation ${request.reservationId}` })
          }
          if (reservation.guest_id !== guest.id) {
            return yield* new InvalidParameters({
              message: "reservation_id: the reservation belongs to another guest",
              param: "reservation_id"
            })
          }
        }

        const [{ balance }] = yield* sql<{ balance: bigint }>`
          SELECT COALESCE(sum(points), 0)::bigint AS balance FROM loyalty_ledger WHERE guest_id = ${guest.id}`
        const after = yield* Effect.fromResult(LoyaltyRules.redeem(Number(balance), request.points))
        const redemptionId = yield* addLedgerEntry(sql, {
          propertyId,
          guestId: guest.id,
          reservationId: request.reservationId,
          kind: "redeem",
          points: -request.points
        }, now)
        yield* appendEvent(propertyId, "loyalty.redeemed", Subject.guest(guest.id))
        return {
          redemptionId,
          guestId: guest.id,
          reservationId: request.reservationId,
          points: request.points,
          balance: after
        }
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("Loyalty.redeem")
      )

    return { redeem } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
