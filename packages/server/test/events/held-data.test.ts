import { expect, layer } from "@effect/vitest"
import { Holds, type HoldRequest } from "@hotel/persistence/booking/Holds"
import { ReservationQueries } from "@hotel/persistence/booking/ReservationQueries"
import { EventOutbox, type PendingEvent } from "@hotel/persistence/events/EventOutbox"
import { EventRenderer } from "@hotel/persistence/events/EventRenderer"
import { Subject } from "@hotel/persistence/events/EventSubject"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { getReservation, hold, holdBody, newGuest } from "../utils/booking.js"
import { clientOf } from "../utils/client.js"
import { insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"
import { allEvents } from "./feed.js"

// `reservation.held` is rendered from the reservation as its insert will write it, before the insert and not
// from a read of it: its data must still be exactly what `GET /reservations/{id}` answers. The holds here have every part a reservation shows
// (a promo code, lines in another currency at a frozen rate, children with ages, add-ons, a bed, notes).

/** A property of the test's own, with a promo-gated USD plan on its DBL, a key and a guest. */
const setup = (api: TestApiService) =>
  Effect.gen(function*() {
    const property = yield* api.importProperty()
    const key = yield* api.createKey({ propertyId: property.property_id })
    const guest = yield* newGuest(api, property.property_id)
    const plan = yield* insertPlan(api.sql, property.property_id, property.room_types["DBL"], {
      currency: "USD",
      base_price: "140.00",
      extra_guest_charge: "25.00",
      requires_promo_code: true,
      kind: "promotion"
    })
    yield* insertPromoCode(api.sql, property.property_id, plan, { code: "FULL" })
    const body = holdBody(api, guest, {
      rate_plan_id: plan,
      check_in: "2031-02-10",
      check_out: "2031-02-13",
      children: 1,
      child_ages: [7],
      bed_config: "twin",
      special_notes: "Late arrival",
      promo_code: "full",
      add_ons: [
        { service_id: property.services["BRK"], modifier_values: { diet: "vegan" }, quantity: 2 },
        { service_id: property.services["TRF"], modifier_values: { flight: "LH123" } }
      ]
    }, property)
    return { property, key, guest, plan, body }
  })

// The hold service itself (the API keeps it inside its booking feature), to watch what it appends.
layer(Layer.merge(TestApiLive, Holds.layer.pipe(Layer.provide(TestApiLive))), { excludeTestServices: true })("reservation.held data", (it) => {
  it.effect("is GET /reservations/{id} right after the hold, value for value", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { body, key } = yield* setup(api)
      const held = yield* hold(api, body, { key })
      const client = yield* clientOf(api, { key })
      const [got, res] = yield* client.reservationReads.get({ params: { id: held.reservation_id }, responseMode: "decoded-and-response" })
      expect(res.status).toBe(200)
      const [event] = yield* allEvents(api, key, { types: "reservation.held" })
      expect(event.type).toBe("reservation.held")
      expect(event.data).toStrictEqual(got)
      expect(event.data).toMatchObject({ promo_code: "FULL", currency: "USD", child_ages: [7], bed_config: "twin" })
    }))

  it.effect("a hold without a promo code, drafted before its locks, is GET /reservations/{id} too", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { body, key, property } = yield* setup(api)
      const { promo_code: _, rate_plan_id: __, ...rest } = body
      const held = yield* hold(api, holdBody(api, rest.guest_id, { ...rest, check_in: "2031-03-02", check_out: "2031-03-05" }, property), { key })
      const got = yield* getReservation(api, held.reservation_id, { key })
      const [event] = yield* allEvents(api, key, { types: "reservation.held" })
      expect(event.data).toStrictEqual(got)
      expect(event.data).toMatchObject({ promo_code: null, child_ages: [7], bed_config: "twin", special_notes: "Late arrival" })
    }))

  it.effect("renders byte for byte what rendering it from a read of the reservation does", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { body, guest, property } = yield* setup(api)
      const [apiKey] = yield* api.sql<{ id: string }>`
        SELECT id FROM api_keys WHERE property_id = ${property.property_id}`.pipe(Effect.orDie)
      const outbox = yield* EventOutbox
      const appended: Array<PendingEvent> = []
      const record = (events: ReadonlyArray<PendingEvent>) => Effect.sync(() => appended.push(...events))
      const recording = EventOutbox.of({
        append: (propertyId, events) => Effect.andThen(record(events), outbox.append(propertyId, events)),
        render: (propertyId, events) => Effect.andThen(record(events), outbox.render(propertyId, events))
      })
      const request: HoldRequest = {
        roomTypeId: body.room_type_id,
        ratePlanId: body.rate_plan_id,
        checkIn: body.check_in,
        checkOut: body.check_out,
        guestId: guest,
        adults: body.adults,
        children: 1,
        childAges: [7],
        bedConfig: "twin",
        addOns: (body.add_ons ?? []).map((addOn) => ({
          serviceId: addOn.service_id,
          modifierValues: addOn.modifier_values ?? {},
          quantity: addOn.quantity ?? 1
        })),
        promoCode: "full",
        specialNotes: "Late arrival",
        blockId: null
      }
      const actor = { propertyId: property.property_id, apiKeyId: apiKey.id, salesContext: "back_office" as const }
      const created = yield* (yield* Holds).create(actor, request).pipe(Effect.provideService(EventOutbox, recording))

      const subject = appended[0]?.subject
      if (subject?.kind !== "reservation" || subject.read === undefined) {
        return yield* Effect.die(new Error("the hold's event carries no reservation as read"))
      }
      // The hold's own instant (its `created_at`), so the read sees the reservation as the insert did.
      const now = subject.read.reservation.created_at
      const read = yield* ReservationQueries.pipe(
        Effect.flatMap((queries) => queries.findRecord(property.property_id, created.reservationId, now)),
        Effect.provide(ReservationQueries.layer)
      )
      expect(JSON.stringify(subject.read)).toBe(JSON.stringify(Option.getOrThrow(read)))
      const renderer = yield* EventRenderer
      const fromInsert = yield* renderer.render(property.property_id, subject, now)
      const fromRead = yield* renderer.render(property.property_id, Subject.reservation(created.reservationId), now)
      expect(JSON.stringify(fromInsert)).toBe(JSON.stringify(fromRead))
    }))
})
