import type { Booking } from "@hotel/domain"
import type { BookingCreated } from "@hotel/api/booking/Api"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { confirmBody } from "./booking.js"
import { clientOf } from "./client.js"
import type { RequestOptions } from "./http.js"
import type { TestApiService } from "./TestServer.js"

// Builders shared by the booking tests (several rooms in one booking), beside ./booking.ts for single holds.

/** The body `POST /bookings` takes, typed by the contract. */
export type BookingRequest = typeof Booking.BookingCreate.Type
export type BookingRoom = typeof Booking.BookingRoom.Type
export type BookingResponse = typeof BookingCreated.Type

/** A room of the fixture's DBL on BAR-DBL (of `property`, default the fixture's), 2 adults; `over` replaces fields. */
export const dblRoom = (
  api: TestApiService,
  over: Partial<BookingRoom> = {},
  property: PropertyImportResult = api.property
): BookingRoom => ({
  room_type_id: property.room_types["DBL"],
  rate_plan_id: property.rate_plans["BAR-DBL"],
  adults: 2,
  ...over
})

/** A room of type `code` on `BAR-<code>` of a property from `importRoomTypes`, 1 adult. */
export const importedRoom = (imported: PropertyImportResult, code: string, over: Partial<BookingRoom> = {}): BookingRoom => ({
  room_type_id: imported.room_types[code],
  rate_plan_id: imported.rate_plans[`BAR-${code}`],
  adults: 1,
  ...over
})

/** A body for `POST /bookings`: three nights in 2031 for `guestId` (`stay` replaces the dates). */
export const bookingBody = (
  guestId: string,
  rooms: ReadonlyArray<BookingRoom>,
  stay: { readonly check_in?: string; readonly check_out?: string } = {}
): BookingRequest => ({
  guest_id: guestId,
  check_in: stay.check_in ?? "2031-03-10",
  check_out: stay.check_out ?? "2031-03-13",
  rooms
})

/** A booking that must succeed (201); returns its body. */
export const book = (api: TestApiService, body: BookingRequest, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.bookings.create({ headers: {}, payload: body }))

/** A booking confirm that must succeed (200), with a fresh reference unless `body` gives one. */
export const confirmBooking = (
  api: TestApiService,
  id: string,
  body: Partial<typeof Booking.HoldConfirm.Type> = {},
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    client.bookings.confirm({ headers: {}, params: { id }, payload: confirmBody(body) }))

/** A booking cancel that must succeed (200). */
export const cancelBooking = (
  api: TestApiService,
  id: string,
  body: typeof Booking.ReservationCancel.Type = {},
  options?: RequestOptions
) => Effect.flatMap(clientOf(api, options), (client) => client.bookings.cancel({ headers: {}, params: { id }, payload: body }))

/** `GET /bookings/{id}`, which must succeed. */
export const getBooking = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.bookings.get({ params: { id } }))

/** Raw `POST /bookings`: for malformed bodies and the exact wire of errors. */
export const postBooking = (api: TestApiService, body: unknown, options?: RequestOptions) =>
  api.post("/bookings", body, options)

