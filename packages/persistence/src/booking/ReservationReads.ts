import * as SqlClient from "effect/sql/SqlClient"
import { type BookingNotFound, type Folio, type GuestNotFound, ReservationNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { balancesOf } from "../folios/FolioLines.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { makeTtlCache, propertyCacheTtl } from "../platform/TtlCache.js"
import {
  type AccommodationRow,
  type FolioLineRow,
  type ReservationFilter,
  ReservationQueries,
  type ReservationRow
} from "./ReservationQueries.js"
import type { ReservationRead } from "./ReservationColumns.js"
import { withSpan } from "../database/Span.js"

// `GET /reservations` and `GET /reservations/{id}`: one read each that answers complete records
// — the reservation as a reader sees it at `now` from `Clock` (an expired hold reads as cancelled), its
// accommodations, its folio lines and the folio's figures in the property's base currency — so the http layer
// only renders them.

/** A reservation with everything its representation shows. */
export interface ReservationRecord {
  readonly reservation: ReservationRow
  readonly accommodations: ReadonlyArray<AccommodationRow>
  readonly lines: ReadonlyArray<FolioLineRow>
  /** The folio's figures; a voided folio's stay lines count for nothing. */
  readonly balances: Folio.FolioBalances
  readonly baseCurrency: string
}

export interface ReservationPage {
  readonly records: ReadonlyArray<ReservationRecord>
  readonly hasMore: boolean
}

const recordOf = (
  reservation: ReservationRow,
  accommodations: ReadonlyArray<AccommodationRow>,
  lines: ReadonlyArray<FolioLineRow>,
  baseCurrency: string
): ReservationRecord => ({
  reservation,
  accommodations,
  lines,
  balances: balancesOf(lines, reservation.folio_status === "voided", baseCurrency),
  baseCurrency
})

export class ReservationReads extends Context.Service<ReservationReads>()("@hotel/persistence/booking/ReservationReads", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const queries = yield* ReservationQueries

    /** The property's base currency, read at most once a `propertyCacheTtl` per process. */
    const baseCurrency = yield* makeTtlCache(propertyCacheTtl, (propertyId) =>
      sql<{ base_currency: string }>`SELECT base_currency FROM properties WHERE id = ${propertyId}`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) => keyPropertyExists(propertyId)(Option.fromNullishOr(rows[0]))),
        Effect.map((property) => property.base_currency)
      ))

    /** The property's base currency and the instant of the read. */
    const context = (propertyId: string) =>
      Effect.gen(function*() {
        return { baseCurrency: yield* baseCurrency(propertyId), now: new Date(yield* Clock.currentTimeMillis) }
      })

    const records = (rows: ReadonlyArray<ReservationRow>, baseCurrency: string) =>
      Effect.map(queries.folioLines(rows.map((row) => row.folio_id)), (lines) =>
        rows.map((reservation) =>
          recordOf(reservation, [], lines.filter((line) => line.folio_id === reservation.folio_id), baseCurrency)
        ))

    /** One page in check-in order; list records carry no accommodations (the list item shows none). */
    const list = (propertyId: string, filter: ReservationFilter): Effect.Effect<ReservationPage, GuestNotFound | BookingNotFound> =>
      Effect.gen(function*() {
        const { baseCurrency, now } = yield* context(propertyId)
        const page = yield* queries.list(propertyId, filter, now)
        return { records: yield* records(page.rows, baseCurrency), hasMore: page.hasMore }
      }).pipe(withSpan("ReservationReads.list"))

    const get = (propertyId: string, id: string): Effect.Effect<ReservationRecord, ReservationNotFound> =>
      Effect.gen(function*() {
        const { baseCurrency, now } = yield* context(propertyId)
        const found = yield* queries.findRecord(propertyId, id, now)
        if (Option.isNone(found)) return yield* new ReservationNotFound({ message: `No reservation ${id}` })
        const { accommodations, lines, reservation } = found.value
        return recordOf(reservation, accommodations, lines, baseCurrency)
      }).pipe(withSpan("ReservationReads.get"))

    /**
     * The record `get` would answer, from a reservation its writer already read as `findRecord` does (a hold's
     * rows are known before its insert), so the writer's event needs no second read.
     */
    const complete = (propertyId: string, read: ReservationRead): Effect.Effect<ReservationRecord> =>
      Effect.map(
        baseCurrency(propertyId),
        (currency) => recordOf(read.reservation, read.accommodations, read.lines, currency)
      )

    return { list, get, complete } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(ReservationQueries.layer))
}
