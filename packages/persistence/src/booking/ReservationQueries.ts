import * as SqlClient from "effect/sql/SqlClient"
import { BookingNotFound, GuestNotFound, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { expiredHold, liveHold } from "./HoldWindow.js"
import {
  folioLineColumns,
  readOf,
  recordColumns,
  type RecordRow,
  reservationColumns,
  type ReservationRead
} from "./ReservationColumns.js"
import { withSpan } from "../database/Span.js"

export type ReservationStatus = "tentative" | "confirmed" | "checked_in" | "checked_out" | "cancelled" | "no_show"

/** What a write decides a reservation's step on (a confirm, a change): its status and its hold's window. */
export interface ReservationStateColumns {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly cancellation_reason: string | null
  readonly guest_id: string
}

/** The columns of a reservation's stay, as every reader and writer of it names them. */
export interface StayColumns {
  readonly room_type_id: string
  readonly rate_plan_id: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly adults: number
  readonly children: number
  readonly child_ages: ReadonlyArray<number> | null
}

/** A reservation as read: `status` already says `cancelled` for a hold whose window has passed. */
export interface ReservationRow extends StayColumns {
  readonly id: string
  readonly confirmation_code: string
  readonly status: ReservationStatus
  readonly guest_id: string
  readonly room_type_name: string
  readonly currency: string
  readonly nightly_rate: string
  readonly total: string
  readonly bed_config: string | null
  readonly booking_source: string
  readonly special_notes: string | null
  readonly promo_code: string | null
  readonly hold_expires_at: Date | null
  readonly cancellation_reason: string | null
  readonly folio_id: string
  readonly folio_status: string
  /** The booking the reservation is a room of; null for a hold of its own. */
  readonly booking_id: string | null
  /** The block the reservation picked up from, or null. */
  readonly block_id: string | null
  readonly created_at: Date
}

export interface AccommodationRow {
  readonly id: string
  readonly reservation_id: string
  readonly room_id: string | null
  readonly room_type_id: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly status: string
  readonly nightly_rate: string
}

export interface FolioLineRow {
  readonly id: string
  readonly folio_id: string
  readonly kind: string
  readonly description: string
  readonly amount: string
  readonly currency: string
  readonly exchange_rate: string | null
  readonly revenue_category: string | null
  readonly created_at: Date
}

export interface ReservationFilter {
  readonly guestId?: string | undefined
  readonly bookingId?: string | undefined
  readonly status?: ReservationStatus | undefined
  readonly limit: number
  readonly offset: number
}

/**
 * Reads of reservations. An expired hold reads as `cancelled` / `hold_expired` from the instant its
 * window passes, whether or not the sweeper has written that down yet.
 */
export class ReservationQueries extends Context.Service<ReservationQueries>()("@hotel/persistence/booking/ReservationQueries", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const expired = (now: Date) => expiredHold(sql, "r", now)
    const columns = (now: Date) => reservationColumns(sql, now)

    const statusFilter = (status: ReservationStatus, now: Date) =>
      status === "cancelled"
        ? sql`(r.status = 'cancelled' OR ${expired(now)})`
        : status === "tentative"
        ? liveHold(sql, "r", now)
        : sql`r.status = ${status}`

    /** A `guest_id` filter must name a guest of the property: another is 404, not an empty page. */
    const knownGuest = (propertyId: string, guestId: string | undefined) =>
      guestId === undefined ? Effect.void : sql<{ id: string }>`
        SELECT id FROM guests WHERE property_id = ${propertyId} AND id = ${guestId}`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) =>
          rows.length > 0 ? Effect.void : Effect.fail(new GuestNotFound({ message: `No guest ${guestId}` }))
        )
      )

    /** A `booking_id` filter must name a booking of the property, like `guest_id`. */
    const knownBooking = (propertyId: string, bookingId: string | undefined) =>
      bookingId === undefined ? Effect.void : sql<{ id: string }>`
        SELECT id FROM bookings WHERE property_id = ${propertyId} AND id = ${bookingId}`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) =>
          rows.length > 0 ? Effect.void : Effect.fail(new BookingNotFound({ message: `No booking ${bookingId}` }))
        )
      )

    /** One page in check-in order (then creation, then id, so paging is stable); one row more tells `has_more`. */
    const list = (propertyId: string, filter: ReservationFilter, now: Date) =>
      knownGuest(propertyId, filter.guestId).pipe(
        Effect.andThen(knownBooking(propertyId, filter.bookingId)),
        Effect.andThen(page(propertyId, filter, now))
      )

    const page = (propertyId: string, filter: ReservationFilter, now: Date) => {
      const conditions = [
        sql`r.property_id = ${propertyId}`,
        ...(filter.guestId !== undefined ? [sql`r.guest_id = ${filter.guestId}`] : []),
        ...(filter.bookingId !== undefined ? [sql`r.booking_id = ${filter.bookingId}`] : []),
        ...(filter.status !== undefined ? [statusFilter(filter.status, now)] : [])
      ]
      return sql<ReservationRow>`
        SELECT ${columns(now)}
        FROM reservations r
        JOIN room_types rt ON rt.id = r.room_type_id
        JOIN folios f ON f.reservation_id = r.id
        WHERE ${sql.and(conditions)}
        ORDER BY r.check_in_date, r.created_at, r.id
        LIMIT ${filter.limit + 1} OFFSET ${filter.offset}`.pipe(
        Effect.map((rows) => ({ rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit })),
        Effect.orDie,
        withSpan("ReservationQueries.list")
      )
    }

    const folioLines = (folioIds: ReadonlyArray<string>) =>
      folioIds.length === 0
        ? Effect.succeed<ReadonlyArray<FolioLineRow>>([])
        : sql<FolioLineRow>`
            SELECT ${folioLineColumns(sql)}
            FROM folio_lines WHERE ${sql.in("folio_id", folioIds)}
            ORDER BY folio_id, position`.pipe(Effect.orDie, withSpan("ReservationQueries.folioLines"))

    /**
     * One reservation with its accommodations and folio lines, in ONE statement (the single read is the
     * hottest one; its parts come back as JSON and are typed like the separate queries' rows).
     */
    const findRecord = (propertyId: string, id: string, now: Date): Effect.Effect<Option.Option<ReservationRead>> =>
      isUuid(id)
        ? sql<RecordRow>`
            SELECT ${recordColumns(sql, now)}
            FROM reservations r
            JOIN room_types rt ON rt.id = r.room_type_id
            JOIN folios f ON f.reservation_id = r.id
            WHERE r.property_id = ${propertyId} AND r.id = ${id}`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), readOf)),
            Effect.orDie,
            withSpan("ReservationQueries.findRecord")
          )
        : Effect.succeed(Option.none())

    return { list, findRecord, folioLines } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
