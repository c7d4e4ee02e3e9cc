import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import * as Tracer from "effect/Tracer"
import { change } from "../utils/changes.js"
import { book } from "../utils/stay.js"
import { makeTestApiLive, TestApi, TestHttpLive } from "../utils/TestServer.js"

// A PATCH renders the reservation it answers once: the event's data and the response are that one rendering
// (the `If-Match` check renders the state before the change, a different state). Counted from the server's
// spans: each read of a reservation (`ReservationReads.get`) is rendered once, and the renderer says which
// subject it rendered (`EventRenderer.render`, attribute `kind`).

const spans: Array<{ readonly name: string; readonly kind: unknown }> = []

const native = Effect.runSync(Effect.tracer)
const recording = Tracer.make({
  span: (options) => {
    const span = native.span(options)
    const record = { name: options.name, kind: undefined as unknown }
    spans.push(record)
    const attribute = span.attribute.bind(span)
    span.attribute = (key, value) => {
      if (key === "kind") record.kind = value
      attribute(key, value)
    }
    return span
  },
  ...(native.context === undefined ? {} : { context: native.context })
})

const counted = (name: string, kind?: string) =>
  spans.filter((span) => span.name === name && (kind === undefined || span.kind === kind)).length

const TracedApiLive = makeTestApiLive(TestHttpLive.pipe(Layer.provide(Layer.succeed(Tracer.Tracer, recording))))

layer(TracedApiLive)("PATCH /reservations/{id}: one rendering", (it) => {
  it.effect("with If-Match: two reads and renders (the tag's, before; the answer's, after), the event reuses the answer", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(Date.parse("2031-02-01T10:00:00Z"))
      const stay = yield* book(api, { check_in: "2031-06-10", check_out: "2031-06-12" })
      const [, before] = yield* api.client.reservationReads.get({ params: { id: stay.reservation_id }, responseMode: "decoded-and-response" })
      const tag = before.headers["etag"] ?? ""

      spans.length = 0
      const changed = yield* change(api, stay.reservation_id, { check_out: "2031-06-13" }, { ifMatch: tag })
      expect(changed.check_out_date).toBe("2031-06-13")
      expect({
        reads: counted("ReservationReads.get"),
        rendererRenders: counted("EventRenderer.render", "reservation")
      }).toEqual({ reads: 2, rendererRenders: 1 })

      // The answer is what GET answers now, and its tag is the one a further If-Match names.
      const [read, after] = yield* api.client.reservationReads.get({ params: { id: stay.reservation_id }, responseMode: "decoded-and-response" })
      expect(read).toEqual(changed)
      spans.length = 0
      yield* change(api, stay.reservation_id, { special_notes: "late" }, { ifMatch: after.headers["etag"] ?? "" })
      expect({ reads: counted("ReservationReads.get"), rendererRenders: counted("EventRenderer.render", "reservation") })
        .toEqual({ reads: 2, rendererRenders: 1 })
    }))

  it.effect("without If-Match: one read and one rendering", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(Date.parse("2031-02-01T10:00:00Z"))
      const stay = yield* book(api, { check_in: "2031-07-10", check_out: "2031-07-12" })
      spans.length = 0
      yield* change(api, stay.reservation_id, { check_out: "2031-07-13" })
      expect({ reads: counted("ReservationReads.get"), rendererRenders: counted("EventRenderer.render", "reservation") })
        .toEqual({ reads: 1, rendererRenders: 0 })
    }))
})
