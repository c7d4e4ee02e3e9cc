import { expect, layer } from "@effect/vitest"
import { GuestNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { expectFailure } from "../utils/client.js"
import { hold, holdBody, newGuest, postHold } from "../utils/booking.js"
import { expectError, expectInvalid, missingId, withQuery } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Input an attacker sends to break the server: the NUL character in text, dates out of the
// calendar or of 2000..2999, JSON nested thousands of levels deep, and a list filter on a guest of no one.
// Each is a clear 4xx with the field's `param`, never a 500.

const nul = "a\u0000b"

/** A body nested `depth` arrays deep. */
const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

layer(TestApiLive, { excludeTestServices: true })("faults: input limits", (it) => {
  it.effect("NUL in any text field is 400 invalid_parameters naming the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      expectInvalid(yield* api.post("/guests", { first_name: nul, last_name: "X" }), "first_name")
      expectInvalid(yield* api.post("/guests", { first_name: "A", last_name: "B", email: "a\u0000@b.c" }), "email")
      expectInvalid(yield* postHold(api, holdBody(api, guest, { special_notes: nul })), "special_notes")
      expectInvalid(yield* postHold(api, holdBody(api, guest, { promo_code: nul })), "promo_code")
      expectInvalid(yield* api.patch(`/rate-plans/${api.property.rate_plans["BAR-DBL"]}`, { name: nul }), "name")
      expectInvalid(
        yield* api.get(withQuery("/rates", { check_in: "2031-03-10", check_out: "2031-03-12", adults: 2, promo_code: nul })),
        "promo_code"
      )
      const held = yield* hold(api, holdBody(api, guest))
      expect(held.status).toBe("tentative")
      const id = held.reservation_id
      expectInvalid(yield* api.post(`/holds/${id}/confirm`, { payment_reference: nul }), "payment_reference")
      expectInvalid(yield* api.post(`/reservations/${id}/cancel`, { reason: nul }), "reason")
    }))

  it.effect("a text modifier value with NUL is 400 on its path; a key with NUL is no modifier", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const [service] = yield* api.sql<{ id: string }>`
        SELECT id FROM services WHERE property_id = ${api.property.property_id} AND code = 'TRF'`.pipe(Effect.orDie)
      expectInvalid(
        yield* postHold(api, holdBody(api, guest, {
          add_ons: [{ service_id: service.id, modifier_values: { flight: nul } }]
        })),
        "add_ons[0].modifier_values.flight"
      )
      // A key with NUL names no modifier: it is not kept, and nothing with NUL reaches the database.
      const [breakfast] = yield* api.sql<{ id: string }>`
        SELECT id FROM services WHERE property_id = ${api.property.property_id} AND code = 'BRK'`.pipe(Effect.orDie)
      const res = yield* postHold(api, holdBody(api, guest, {
        add_ons: [{ service_id: breakfast.id, modifier_values: { [nul]: "x" } }]
      }))
      expect(res.status, res.text).toBeLessThan(500)
    }))

  it.effect("dates are real calendar dates from 2000-01-01 to 2999-12-31, checked before the stay's rules", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      for (const bad of ["0000-01-01", "1999-12-31", "3000-01-01", "9999-12-31", "2031-02-29", "2031-13-01"]) {
        expectInvalid(yield* postHold(api, holdBody(api, guest, { check_in: bad })), "check_in")
        // check_in is fine on its own, check_out is not: the field is named before any rule between the two.
        expectInvalid(yield* postHold(api, holdBody(api, guest, { check_out: bad })), "check_out")
        expectInvalid(
          yield* api.get(withQuery("/availability", { start_date: bad, end_date: "2031-03-12" })),
          "start_date"
        )
        expectInvalid(
          yield* api.get(withQuery("/rates", { check_in: "2031-03-10", check_out: bad, adults: 2 })),
          "check_out"
        )
      }
      // The edges themselves are dates (the stay rules then decide).
      const edges = yield* api.client.availability.availability({ query: { start_date: "2999-12-30", end_date: "2999-12-31" } })
      expect(edges.data[0]?.nights.map((night) => night.date)).toContain("2999-12-30")
    }))

  it.effect("JSON nested deeper than 64 levels is 400 invalid_json, 64 levels is decoded as usual", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (const depth of [65, 5_000, 100_000]) {
        expectError(yield* api.post("/guests", undefined, { raw: deep(depth) }), 400, "invalid_request", "invalid_json")
        expectError(
          yield* api.post("/holds", undefined, { raw: `{"special_notes":${deep(depth)}}`, headers: { "idempotency-key": `deep-${depth}` } }),
          400,
          "invalid_request",
          "invalid_json"
        )
      }
      const res = yield* api.post("/guests", undefined, { raw: `{"first_name":${deep(63)}}` })
      expectInvalid(res, "first_name")
    }))

  it.effect("a body that is not UTF-8 is 400 invalid_json, never stored with replacement characters", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const notUtf8 = Buffer.concat([Buffer.from('{"first_name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","last_name":"X"}')])
      expectError(yield* api.post("/guests", undefined, { raw: notUtf8 }), 400, "invalid_request", "invalid_json")
      // an escaped half of a surrogate pair is valid JSON but no character: the field says so
      expectInvalid(yield* api.post("/guests", undefined, { raw: '{"first_name":"\\ud800","last_name":"X"}' }), "first_name")
      expectInvalid(yield* api.post("/rate-plans", { room_type_id: api.property.room_types["DBL"], name: "a\udc00", base_price: "1" }), "name")
      const utf8 = Buffer.from('{"first_name":"Zo\u00eb \u{1F600}","last_name":"X"}')
      expect((yield* api.post("/guests", undefined, { raw: utf8 })).status).toBe(201)
    }))

  it.effect("GET /reservations?guest_id= a guest of no one (or of another property) is 404 guest_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const ofGuest = (guestId: string) => api.client.reservationReads.list({ query: { guest_id: guestId } })
      yield* expectFailure(ofGuest(missingId), GuestNotFound)
      const other = yield* api.importProperty()
      const stranger = yield* newGuest(api, other.property_id)
      yield* expectFailure(ofGuest(stranger), GuestNotFound)
      const guest = yield* newGuest(api)
      const [page, res] = yield* api.client.reservationReads.list({ query: { guest_id: guest }, responseMode: "decoded-and-response" })
      expect(res.status).toBe(200)
      expect(page).toEqual({ has_more: false, data: [] })
    }))
})
