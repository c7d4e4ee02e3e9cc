// A hold as it will read before its rows are written: the service makes the rows' ids, so the reservation, as
// `ReservationQueries.findRecord` will read it, is known before the insert and its event can ride on it
// (./writes.ts).
import { Money, Pricing } from "@hotel/domain"
import * as Arr from "effect/Array"
import type { ReservationRead } from "../ReservationColumns.js"
import type { HoldActor, HoldRequest } from "./requests.js"
import type { PlacedHold, ReservationFields } from "./writes.js"

/** A hold's row ids, made here (uuid v4, as the columns' defaults would) so its read is known before its insert. */
export interface HoldIds {
  readonly reservation: string
  readonly folio: string
  readonly accommodation: string
  readonly lines: ReadonlyArray<string>
}

export const newIds = (lines: number): HoldIds => ({
  reservation: globalThis.crypto.randomUUID(),
  folio: globalThis.crypto.randomUUID(),
  accommodation: globalThis.crypto.randomUUID(),
  lines: Array.from({ length: lines }, () => globalThis.crypto.randomUUID())
})

/** A hold about to be inserted: its request, the values of its rows, their ids and its confirmation code. */
export interface UnwrittenHold {
  readonly actor: HoldActor
  readonly request: HoldRequest
  readonly fields: ReservationFields
  readonly ids: HoldIds
  readonly code: string
  /** The room type's name as locked, which the read shows. */
  readonly roomTypeName: string
}

/**
 * The hold as `ReservationQueries.findRecord` will read it at `now`, from what its insert writes: every column is
 * a value given to the insert (numbers as the same decimal text), a constant of a new hold or the room type's
 * name as locked. So its event is rendered before the insert and rides on it.
 */
const heldRead = ({ actor, code, fields, ids, request, roomTypeName }: UnwrittenHold): ReservationRead => {
  const { now, record } = fields
  const { quote, stay } = record
  const childAges = stay.party.childAges ?? null
  const nightlyRate = Money.toDb(quote.nightlyRate)
  const rate = quote.exchangeRate === null ? null : Money.toDb(quote.exchangeRate)
  return {
    reservation: {
      id: ids.reservation,
      confirmation_code: code,
      status: "tentative",
      guest_id: request.guestId,
      room_type_id: stay.roomTypeId,
      room_type_name: roomTypeName,
      rate_plan_id: stay.ratePlanId,
      check_in_date: stay.checkIn,
      check_out_date: stay.checkOut,
      adults: stay.party.adults,
      children: Pricing.childCount(stay.party),
      child_ages: childAges === null ? null : [...childAges],
      currency: quote.currency,
      nightly_rate: nightlyRate,
      total: Money.toDb(quote.total),
      bed_config: request.bedConfig,
      booking_source: actor.salesContext,
      special_notes: request.specialNotes,
      promo_code: record.promo?.code ?? null,
      hold_expires_at: fields.holdExpiresAt,
      cancellation_reason: null,
      folio_id: ids.folio,
      folio_status: "open",
      booking_id: fields.booking?.id ?? null,
      block_id: record.blockId,
      created_at: now
    },
    accommodations: [{
      id: ids.accommodation,
      reservation_id: ids.reservation,
      room_id: null,
      room_type_id: stay.roomTypeId,
      check_in_date: stay.checkIn,
      check_out_date: stay.checkOut,
      status: "tentative",
      nightly_rate: nightlyRate
    }],
    lines: Arr.zip(ids.lines, quote.lines).map(([id, line]) => ({
      id,
      folio_id: ids.folio,
      kind: line.kind,
      description: line.description,
      amount: Money.toDb(line.amount),
      currency: quote.currency,
      exchange_rate: rate,
      revenue_category: line.revenueCategory,
      created_at: now
    }))
  }
}

/** The hold as written, before it is: what `POST /holds` answers, its read and the nights it takes. */
export const placedHold = (hold: UnwrittenHold): PlacedHold => {
  const { code, fields, ids, request } = hold
  return {
    created: {
      reservationId: ids.reservation,
      folioId: ids.folio,
      confirmationCode: code,
      holdExpiresAt: fields.holdExpiresAt,
      total: fields.record.quote.total,
      currency: fields.record.quote.currency
    },
    read: heldRead(hold),
    nights: { roomTypeId: request.roomTypeId, checkIn: request.checkIn, checkOut: request.checkOut }
  }
}
