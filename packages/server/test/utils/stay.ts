import type * as SqlClient from "effect/sql/SqlClient"
import { type Folio, Pricing, type Stay, Visibility } from "@hotel/domain"
import type { ChargePosted, FolioLine, FolioView } from "@hotel/api/folios/Api"
import * as Effect from "effect/Effect"
import { confirm, hold, holdBody, type HoldRequest, newGuest } from "./booking.js"
import { clientOf } from "./client.js"
import type { RequestOptions } from "./http.js"
import { insertReservation } from "./sqlSeed.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the after-the-booking tests (folios, charges, loyalty, stay transitions,
// cancellation quotes). Reservations are made through the real POST /holds and confirm endpoints; only states
// the API cannot reach yet (a past arrival, a stay that already ended) are seeded with SQL.

/** The fixture property's time zone. */
export const timeZone = "Europe/Lisbon"

/** The property's local date today, shifted by `offset` days. */
export const localDay = (offset = 0): string => Pricing.addDays(Visibility.localToday(new Date(), timeZone), offset)

export type LineWire = typeof FolioLine.Type
export type FolioWire = typeof FolioView.Type
export type ChargeWire = typeof ChargePosted.Type

/** `GET /folios/{id}`, which must succeed (200). */
export const getFolio = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.folios.get({ params: { id } }))

/** The guest's loyalty points balance, as `GET /guests/{id}` reports it. */
export const loyaltyBalance = (api: TestApiService, guestId: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.guests.get({ params: { id: guestId } })).pipe(
    Effect.map((guest) => guest.loyalty_points)
  )

/** Raw `POST /reservations/{id}/charges`: for malformed bodies or ids and the exact wire; otherwise `charge`. */
export const postCharge = (api: TestApiService, reservationId: string, body: unknown, options?: RequestOptions) =>
  api.post(`/reservations/${reservationId}/charges`, body, options)

/** A charge that must succeed (201); `over` replaces fields of a 10.00 EUR `other` charge. */
export const charge = (
  api: TestApiService,
  reservationId: string,
  over: Partial<Folio.ChargePost> = {},
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    client.charges.post({ headers: {},
      params: { id: reservationId },
      payload: { description: "Minibar", amount: "10.00", currency: "EUR", revenue_category: "other", ...over }
    }))

/**
 * A hold through `POST /holds`, confirmed through `POST /holds/{id}/confirm` unless `tentative`. The body is the
 * fixture's DBL on BAR-DBL for two adults; `over` replaces fields (dates, plan, guest...).
 */
export const book = (
  api: TestApiService,
  over: Partial<HoldRequest> = {},
  options: RequestOptions & { readonly tentative?: boolean; readonly propertyId?: string } = {}
) =>
  Effect.gen(function*() {
    const { propertyId, tentative, ...request } = options
    const guest = typeof over["guest_id"] === "string" ? over["guest_id"] : yield* newGuest(api, propertyId)
    const held = yield* hold(api, holdBody(api, guest, over), request)
    if (tentative !== true) yield* confirm(api, held.reservation_id, {}, request)
    return { reservation_id: held.reservation_id, folio_id: held.folio_id, total: held.total, guest_id: guest }
  })

/** `POST /reservations/{id}/check-in` that must succeed (with `room_id`, that room; without, one assigned). */
export const checkIn = (api: TestApiService, id: string, payload: typeof Stay.CheckIn.Type = {}, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.stay.checkIn({ headers: {}, params: { id }, payload }))

/** Moves a reservation (and its accommodation) to a status the API would reach by other paths. */
export const forceStatus = (sql: SqlClient.SqlClient, reservationId: string, status: string) =>
  Effect.gen(function*() {
    yield* sql`UPDATE reservations SET status = ${status} WHERE id = ${reservationId}`
    yield* sql`UPDATE accommodations SET status = ${status} WHERE reservation_id = ${reservationId}`
  }).pipe(Effect.orDie)

/** Makes a live hold an expired one (its window lapsed a minute ago). */
export const expire = (sql: SqlClient.SqlClient, reservationId: string) =>
  sql`UPDATE reservations SET hold_expires_at = ${new Date(Date.now() - 60_000)} WHERE id = ${reservationId}`.pipe(
    Effect.orDie
  )

/**
 * A reservation seeded with SQL, as the booking flow would leave it (reservation, open folio, one accommodation
 * leg), for dates the API cannot book (an arrival in the past) or states it has not reached yet.
 */
export const seedStay = (
  api: TestApiService,
  seed: {
    readonly checkIn: string
    readonly checkOut: string
    readonly status: "confirmed" | "checked_in" | "checked_out" | "no_show"
    readonly propertyId?: string
    readonly roomTypeId?: string
    readonly ratePlanId?: string
  }
) =>
  Effect.gen(function*() {
    const propertyId = seed.propertyId ?? api.property.property_id
    const roomTypeId = seed.roomTypeId ?? api.property.room_types["DBL"]
    const id = yield* insertReservation(api.sql, propertyId, {
      roomTypeId,
      ratePlanId: seed.ratePlanId ?? api.property.rate_plans["BAR-DBL"],
      checkIn: seed.checkIn,
      checkOut: seed.checkOut,
      status: seed.status
    })
    const now = new Date()
    const [folio] = yield* api.sql<{ id: string }>`
      INSERT INTO folios (property_id, reservation_id, currency, status, created_at)
      VALUES (${propertyId}, ${id}, 'EUR', 'open', ${now}) RETURNING id`.pipe(Effect.orDie)
    yield* api.sql`
      INSERT INTO accommodations (reservation_id, room_type_id, room_id, check_in_date, check_out_date, status,
                                  nightly_rate)
      VALUES (${id}, ${roomTypeId}, NULL, ${seed.checkIn}, ${seed.checkOut}, ${seed.status}, 100)`.pipe(Effect.orDie)
    return { reservation_id: id, folio_id: folio.id }
  })

/** The stored status of a reservation and the room of its accommodation. */
export const stored = (sql: SqlClient.SqlClient, reservationId: string) =>
  sql<{ status: string; room_id: string | null; leg_status: string }>`
    SELECT r.status, a.room_id, a.status AS leg_status
    FROM reservations r JOIN accommodations a ON a.reservation_id = r.id
    WHERE r.id = ${reservationId}`.pipe(Effect.orDie, Effect.map((rows) => rows[0]))
