import * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { BlockRepository } from "../blocks/BlockRepository.js"
import { presentBlock } from "../blocks/BlockView.js"
import { ReservationReads } from "../booking/ReservationReads.js"
import { presentReservation } from "../booking/ReservationView.js"
import { withSpan } from "../database/Span.js"
import { FolioRepository } from "../folios/FolioRepository.js"
import { presentFolio } from "../folios/FolioView.js"
import { GuestRepository } from "../guests/GuestRepository.js"
import { presentGuest } from "../guests/GuestView.js"
import { InclusionRepository } from "../rates/InclusionRepository.js"
import { IntervalRepository } from "../rates/IntervalRepository.js"
import { PromoCodeRepository } from "../rates/PromoCodeRepository.js"
import { presentInclusion, presentInterval, presentPromoCode } from "../rates/RateManagementView.js"
import { RatePlanRepository } from "../rates/RatePlanRepository.js"
import { presentRatePlan } from "../rates/RatePlanView.js"
import { findEndpoint } from "../webhooks/WebhookEndpoints.js"
import { presentEndpoint } from "../webhooks/WebhookView.js"
import { EventRenderer } from "./EventRenderer.js"
import type { EventSubject } from "./EventSubject.js"

// An event's `data` is what `GET` of its subject answers: the same repository reads and the same views
// (`…View.ts`) as the read handlers, run on the writer's connection (so inside its transaction, seeing its
// change). A writer that already rendered its subject hands the outbox that rendering instead (`PendingEvent`).

const missing = (what: string) => Effect.die(new Error(`event subject vanished in its own transaction: ${what}`))

const required = <A, E, R>(what: string) => (self: Effect.Effect<A, E, R>): Effect.Effect<A, never, R> =>
  Effect.catch(self, () => missing(what))

const make = Effect.gen(function*() {
  const reservations = yield* ReservationReads
  const folios = yield* FolioRepository
  const guests = yield* GuestRepository
  const plans = yield* RatePlanRepository
  const intervals = yield* IntervalRepository
  const inclusions = yield* InclusionRepository
  const promoCodes = yield* PromoCodeRepository
  const sql = yield* SqlClient.SqlClient
  const blocks = yield* BlockRepository

  /** A reservation its writer already knows as read (a hold's, from its rows) is presented without reading it. */
  const reservation = (propertyId: string, subject: Extract<EventSubject, { kind: "reservation" }>) =>
    (subject.read === undefined
      ? reservations.get(propertyId, subject.id).pipe(required(`reservation ${subject.id}`))
      : reservations.complete(propertyId, subject.read)).pipe(Effect.map(presentReservation))

  const render = (propertyId: string, subject: EventSubject, now: Date): Effect.Effect<unknown> => {
    switch (subject.kind) {
      case "reservation":
        return subject.refundDueMinor === undefined
          ? reservation(propertyId, subject)
          : Effect.map(reservation(propertyId, subject), (data) => ({ ...data, refund_due_minor: Number(subject.refundDueMinor) }))
      case "folio":
        return folios.findWithin(propertyId, subject.id, now).pipe(
          Effect.flatMap((found) => Effect.fromOption(found)),
          required(`folio ${subject.id}`),
          Effect.map(({ folio, lines }) => presentFolio(folio, lines))
        )
      case "guest":
        return guests.findById(propertyId, subject.id).pipe(
          Effect.flatMap((found) => Effect.fromOption(found)),
          required(`guest ${subject.id}`),
          Effect.map(presentGuest)
        )
      case "rate_plan":
        return plans.findById(propertyId, subject.id).pipe(
          Effect.flatMap((found) => Effect.fromOption(found)),
          required(`rate plan ${subject.id}`),
          Effect.map(presentRatePlan)
        )
      case "interval":
        return intervals.get(propertyId, subject.id).pipe(required(`interval ${subject.id}`), Effect.map(presentInterval))
      case "inclusions":
        // `GET /rate-plans/{id}/inclusions` answers `{ data }`; the event names the plan beside it.
        return inclusions.list(propertyId, subject.ratePlanId).pipe(
          required(`rate plan ${subject.ratePlanId}`),
          Effect.map((rows) => ({ rate_plan_id: subject.ratePlanId, data: rows.map(presentInclusion) }))
        )
      case "promo_code":
        return promoCodes.get(propertyId, subject.id).pipe(required(`promo code ${subject.id}`), Effect.map(presentPromoCode))
      case "webhook_endpoint":
        return findEndpoint(sql, propertyId, subject.id, false).pipe(
          required(`webhook endpoint ${subject.id}`),
          Effect.map(presentEndpoint)
        )
      case "block":
        return blocks.get(propertyId, subject.id, now).pipe(
          Effect.flatMap((found) => Effect.fromOption(found)),
          required(`block ${subject.id}`),
          Effect.map(presentBlock)
        )
      case "rendered":
        return Effect.succeed(subject.data)
      case "inventory":
      case "availability":
        return Effect.succeed({
          room_type_id: subject.roomTypeId,
          start_date: subject.startDate,
          end_date: subject.endDate
        })
    }
  }
  return EventRenderer.of({
    render: (propertyId, subject, now) =>
      render(propertyId, subject, now).pipe(withSpan("EventRenderer.render", { attributes: { kind: subject.kind } }))
  })
})

/** The renderer with the read repositories it uses; needs only a `SqlClient`. */
export const EventRendererLive = Layer.effect(EventRenderer, make).pipe(
  Layer.provide(Layer.mergeAll(
    ReservationReads.layer,
    FolioRepository.layer,
    GuestRepository.layer,
    RatePlanRepository.layer,
    IntervalRepository.layer,
    InclusionRepository.layer,
    PromoCodeRepository.layer,
    BlockRepository.layer
  ))
)
