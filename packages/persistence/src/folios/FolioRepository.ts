import * as SqlClient from "effect/sql/SqlClient"
import { isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type FolioLineDetail, folioLinesOf } from "./FolioLines.js"
import { expiredHold } from "../booking/HoldWindow.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

export { type FolioLineDetail, folioLinesOf } from "./FolioLines.js"

/** A folio as read: `status` says `voided` for a cancelled reservation, or a hold whose window has passed. */
export interface FolioRow {
  readonly id: string
  readonly reservation_id: string
  readonly currency: string
  readonly status: "open" | "voided"
  readonly base_currency: string
}

/** `GET /folios/{id}`: a folio of the property with its lines. */
export class FolioRepository extends Context.Service<FolioRepository>()("@hotel/persistence/folios/FolioRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const load = (propertyId: string, folioId: string, now: Date) =>
      Effect.gen(function*() {
        const [folio] = yield* sql<FolioRow>`
          SELECT f.id, f.reservation_id, f.currency,
                 CASE WHEN f.status = 'voided' OR ${expiredHold(sql, "r", now)}
                      THEN 'voided' ELSE 'open' END AS status,
                 p.base_currency
          FROM folios f
          JOIN reservations r ON r.id = f.reservation_id
          JOIN properties p ON p.id = f.property_id
          WHERE f.property_id = ${propertyId} AND f.id = ${folioId}`
        if (folio === undefined) return Option.none()
        const lines = yield* folioLinesOf(sql, folio.id)
        return Option.some({ folio, lines })
      })

    /** The folio and its lines, read from one snapshot so the status and the lines agree. */
    const findById = (propertyId: string, folioId: string, now: Date) =>
      isUuid(folioId)
        ? sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`.pipe(
          Effect.andThen(load(propertyId, folioId, now)),
          inTransaction(sql),
          Effect.orDie,
          withSpan("FolioRepository.findById")
        )
        : Effect.succeed(Option.none<{ readonly folio: FolioRow; readonly lines: ReadonlyArray<FolioLineDetail> }>())

    /** The same read on the caller's transaction (an event rendered inside the write that changed the folio). */
    const findWithin = (propertyId: string, folioId: string, now: Date) =>
      load(propertyId, folioId, now).pipe(Effect.orDie, withSpan("FolioRepository.findWithin"))

    return { findById, findWithin } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
