import * as SqlClient from "effect/sql/SqlClient"
import { isUuid } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { appendEvent } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

export interface GuestRow {
  readonly id: string
  readonly first_name: string
  readonly last_name: string
  readonly email: string | null
  readonly phone: string | null
  readonly language: string | null
  readonly loyalty_points: number
  readonly created_at: Date
}

export interface NewGuestInput {
  readonly first_name: string
  readonly last_name: string
  readonly email?: string | null | undefined
  readonly phone?: string | null | undefined
  readonly language?: string | null | undefined
}

/** Guests of a property, with their loyalty balance (the sum of their ledger). */
export class GuestRepository extends Context.Service<GuestRepository>()("@hotel/persistence/guests/GuestRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const create = (propertyId: string, input: NewGuestInput) =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql<{ id: string }>`
          INSERT INTO guests (property_id, first_name, last_name, email, phone, language, created_at)
          VALUES (${propertyId}, ${input.first_name}, ${input.last_name}, ${input.email ?? null},
                  ${input.phone ?? null}, ${input.language ?? null}, ${now})
          RETURNING id`
        const created = rows[0]
        if (created === undefined) return yield* Effect.die(new Error("INSERT ... RETURNING gave no row"))
        yield* appendEvent(propertyId, "guest.created", Subject.guest(created.id))
        return { guest_id: created.id }
      }).pipe(inTransaction(sql), Effect.orDie, withSpan("GuestRepository.create"))

    const findById = (propertyId: string, id: string) =>
      isUuid(id)
        ? sql<Omit<GuestRow, "loyalty_points"> & { readonly loyalty_points: bigint }>`
            SELECT g.id, g.first_name, g.last_name, g.email, g.phone, g.language, g.created_at,
                   COALESCE((SELECT SUM(points) FROM loyalty_ledger l WHERE l.guest_id = g.id), 0)::bigint AS loyalty_points
            FROM guests g WHERE g.property_id = ${propertyId} AND g.id = ${id}`.pipe(
            // A balance may pass 32 bits (many stays); it is exact as a number up to 2^53.
            Effect.map((rows) =>
              Option.map(Option.fromNullishOr(rows[0]), (row): GuestRow => ({ ...row, loyalty_points: Number(row.loyalty_points) }))
            ),
            Effect.orDie,
            withSpan("GuestRepository.findById")
          )
        : Effect.succeed(Option.none<GuestRow>())

    return { create, findById } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
