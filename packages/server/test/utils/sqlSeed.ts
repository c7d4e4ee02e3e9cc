import type * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"

// Direct SQL seeding for tests of reads (quotes, availability) that must not depend on the write endpoints.

export interface PlanSeed {
  readonly name?: string
  readonly currency?: string
  readonly base_price?: string
  readonly extra_guest_charge?: string
  readonly min_los?: number | null
  readonly max_los?: number | null
  readonly booking_window_start?: string | null
  readonly booking_window_end?: string | null
  readonly stay_window_start?: string | null
  readonly stay_window_end?: string | null
  readonly active_for_booking_engine?: boolean
  readonly active_for_channels?: boolean
  readonly kind?: "standard" | "promotion"
  readonly derived_from_id?: string | null
  readonly derivation_type?: "percent" | "fixed" | "perPerson" | null
  readonly derivation_value?: string | null
  readonly is_active?: boolean
  readonly requires_promo_code?: boolean
  readonly deleted?: boolean
}

/** A rate plan on a room type of a property; returns its id. */
export const insertPlan = (sql: SqlClient.SqlClient, propertyId: string, roomTypeId: string, seed: PlanSeed = {}) =>
  sql<{ id: string }>`
    INSERT INTO rate_plans (property_id, room_type_id, name, base_price, currency, extra_guest_charge, min_los, max_los,
      booking_window_start, booking_window_end, stay_window_start, stay_window_end, active_for_booking_engine,
      active_for_channels, kind, derived_from_id, derivation_type, derivation_value, is_active, requires_promo_code,
      deleted_at, created_at, updated_at)
    VALUES (${propertyId}, ${roomTypeId}, ${seed.name ?? "Test plan"}, ${seed.base_price ?? "100.00"},
      ${seed.currency ?? "EUR"}, ${seed.extra_guest_charge ?? "0"}, ${seed.min_los ?? null}, ${seed.max_los ?? null},
      ${seed.booking_window_start ?? null}, ${seed.booking_window_end ?? null}, ${seed.stay_window_start ?? null},
      ${seed.stay_window_end ?? null}, ${seed.active_for_booking_engine ?? true}, ${seed.active_for_channels ?? true},
      ${seed.kind ?? "standard"}, ${seed.derived_from_id ?? null}, ${seed.derivation_type ?? null},
      ${seed.derivation_value ?? null}, ${seed.is_active ?? true}, ${seed.requires_promo_code ?? false},
      ${seed.deleted === true ? new Date() : null}, now(), now())
    RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows[0].id))

export interface IntervalSeed {
  readonly start_date: string
  readonly end_date: string
  readonly price_mon?: string | null
  readonly price_tue?: string | null
  readonly price_wed?: string | null
  readonly price_thu?: string | null
  readonly price_fri?: string | null
  readonly price_sat?: string | null
  readonly price_sun?: string | null
  readonly min_stay?: number | null
  readonly max_stay?: number | null
  readonly closed_to_arrival?: boolean
  readonly closed_to_departure?: boolean
  readonly stop_sell?: boolean
  readonly extra_guest_charge?: string
}

export const insertInterval = (sql: SqlClient.SqlClient, propertyId: string, planId: string, seed: IntervalSeed) =>
  sql<{ id: string }>`
    INSERT INTO rate_plan_intervals (property_id, rate_plan_id, name, start_date, end_date, price_mon, price_tue,
      price_wed, price_thu, price_fri, price_sat, price_sun, min_stay, max_stay, closed_to_arrival,
      closed_to_departure, stop_sell, extra_guest_charge)
    VALUES (${propertyId}, ${planId}, ${"Season"}, ${seed.start_date}, ${seed.end_date}, ${seed.price_mon ?? null},
      ${seed.price_tue ?? null}, ${seed.price_wed ?? null}, ${seed.price_thu ?? null}, ${seed.price_fri ?? null},
      ${seed.price_sat ?? null}, ${seed.price_sun ?? null}, ${seed.min_stay ?? null}, ${seed.max_stay ?? null},
      ${seed.closed_to_arrival ?? false}, ${seed.closed_to_departure ?? false}, ${seed.stop_sell ?? false},
      ${seed.extra_guest_charge ?? "0"})
    RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows[0].id))

export interface PromoSeed {
  readonly code: string
  readonly valid_from?: string | null
  readonly valid_to?: string | null
  readonly max_redemptions?: number | null
  readonly max_per_guest?: number | null
  readonly is_active?: boolean
}

export const insertPromoCode = (sql: SqlClient.SqlClient, propertyId: string, planId: string, seed: PromoSeed) =>
  sql<{ id: string }>`
    INSERT INTO promo_codes (property_id, rate_plan_id, code, valid_from, valid_to, max_redemptions, max_per_guest,
      is_active)
    VALUES (${propertyId}, ${planId}, ${seed.code.toUpperCase()}, ${seed.valid_from ?? null}, ${seed.valid_to ?? null},
      ${seed.max_redemptions ?? null}, ${seed.max_per_guest ?? null}, ${seed.is_active ?? true})
    RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows[0].id))

export const insertGuest = (sql: SqlClient.SqlClient, propertyId: string) =>
  sql<{ id: string }>`
    INSERT INTO guests (property_id, first_name, last_name) VALUES (${propertyId}, 'Test', 'Guest')
    RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows[0].id))

export interface ReservationSeed {
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly checkIn: string
  readonly checkOut: string
  readonly status: "tentative" | "confirmed" | "checked_in" | "checked_out" | "cancelled" | "no_show"
  readonly holdExpiresAt?: Date | null
  readonly guestId?: string
  readonly promoCodeId?: string | null
}

/** A reservation row as the booking flow would leave it (only what inventory and redemptions read). */
export const insertReservation = (sql: SqlClient.SqlClient, propertyId: string, seed: ReservationSeed) =>
  Effect.gen(function*() {
    const guestId = seed.guestId ?? (yield* insertGuest(sql, propertyId))
    const code = `T${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`
    const now = new Date()
    const [row] = yield* sql<{ id: string }>`
      INSERT INTO reservations (property_id, confirmation_code, guest_id, room_type_id, rate_plan_id, status,
        check_in_date, check_out_date, adults, children, currency, nightly_rate, total, room_revenue, booking_source,
        promo_code_id, hold_expires_at, created_at, updated_at)
      VALUES (${propertyId}, ${code}, ${guestId}, ${seed.roomTypeId}, ${seed.ratePlanId}, ${seed.status},
        ${seed.checkIn}, ${seed.checkOut}, 2, 0, 'EUR', '100', '100', '100', 'test', ${seed.promoCodeId ?? null},
        ${seed.holdExpiresAt ?? null}, ${now}, ${now})
      RETURNING id`.pipe(Effect.orDie)
    return row.id
  })

/** 15 minutes from now (a live hold) or a minute ago (an expired one), in real time. */
export const liveHold = (): Date => new Date(Date.now() + 15 * 60_000)
export const expiredHold = (): Date => new Date(Date.now() - 60_000)
