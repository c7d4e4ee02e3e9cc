// The pricing snapshot: the engine's model of one property (plans with their derivation chains, room types,
// services, promo codes with live redemption counts) plus what the API shows or the booking flow needs.
import type { Pricing, Visibility } from "@hotel/domain"
import * as Option from "effect/Option"
import type { ModifierRow } from "../../catalog/CatalogRepository.js"

export interface SnapshotProperty {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly timezone: string
  readonly baseCurrency: string
  readonly loyaltyPointsPerUsd: number
  /** The engine's view: base currency, exchange rates, age brackets, taxes, default cancellation policy. */
  readonly pricing: Pricing.PricingProperty
}

export interface SnapshotRoomType extends Pricing.RoomType {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly bedConfigs: ReadonlyArray<string>
}

export interface SnapshotPlan {
  readonly id: string
  readonly code: string | null
  readonly name: string
  readonly publicName: string | null
  readonly kind: "standard" | "promotion"
  readonly isDefault: boolean
  readonly roomTypeId: string
  readonly currency: string
  /** The engine's plan; `derivation.parent` is the loaded parent, recursively. */
  readonly model: Pricing.RatePlan
  /** The plan's own inclusions, in stored order. */
  readonly inclusions: ReadonlyArray<Pricing.Inclusion>
}

/** A service's modifier, as stored. */
export type SnapshotModifier = ModifierRow

export interface SnapshotService {
  readonly id: string
  readonly code: string
  readonly guestBookable: boolean
  readonly modifiers: ReadonlyArray<SnapshotModifier>
  /** The engine's service: price in the base currency, pricing unit, category, own tax rule. */
  readonly model: Pricing.Service
}

export interface PricingSnapshot {
  /** The instant redemption counts were taken at. */
  readonly now: Date
  /** The property's local date at `now`. */
  readonly today: Pricing.IsoDate
  readonly property: SnapshotProperty
  /** In catalogue order (position, code). */
  readonly roomTypes: ReadonlyArray<SnapshotRoomType>
  /**
   * Live (not deleted) plans in creation order. A deleted ancestor of a live plan is reachable only through
   * `model.derivation.parent` (with `deleted: true`, so the visibility rule hides its descendants).
   */
  readonly plans: ReadonlyArray<SnapshotPlan>
  readonly services: ReadonlyArray<SnapshotService>
  /** Live (not deleted) codes of the loaded plans and their ancestors, with live redemption counts. */
  readonly promoCodes: ReadonlyArray<Visibility.PromoCodeState>
  readonly roomTypesById: ReadonlyMap<string, SnapshotRoomType>
  readonly plansById: ReadonlyMap<string, SnapshotPlan>
  readonly servicesById: ReadonlyMap<string, SnapshotService>
  /** Whether `LoadOptions.guestId` names a guest of the property; undefined when no guest was given. */
  readonly guestFound: boolean | undefined
}

/**
 * The nights whose overrides a snapshot loads, `from` through `through` inclusive: a stay's from its check-in
 * through its check-out (the departure night's rule), a calendar's its own nights. A night outside it reads as
 * having no override, so every caller names the nights it prices or checks.
 */
export interface NightSpan {
  readonly from: Pricing.IsoDate
  readonly through: Pricing.IsoDate
}

/** The span of a stay: its nights and its departure night. */
export const staySpan = (stay: { readonly checkIn: Pricing.IsoDate; readonly checkOut: Pricing.IsoDate }): NightSpan => ({
  from: stay.checkIn,
  through: stay.checkOut
})

/** A span no night is in: the snapshot of a writer that reads the plans, not their nights (`POST /ari`). */
export const noNights: NightSpan = { from: "2999-12-31", through: "2000-01-01" }

export interface LoadOptions {
  /**
   * Counts this guest's live redemptions of each code too (`max_per_guest`) and tells whether the guest is the
   * property's (`guestFound`); quotes know no guest.
   */
  readonly guestId?: string | null | undefined
  /** A reservation whose redemption is not counted (a change of it re-checks its own code's caps). */
  readonly excludeReservationId?: string | null | undefined
}

/** Lookups on a snapshot (Option, so callers decide which 404 a miss is). */
export const roomTypeOf = (snapshot: PricingSnapshot, id: string): Option.Option<SnapshotRoomType> =>
  Option.fromNullishOr(snapshot.roomTypesById.get(id))

export const planOf = (snapshot: PricingSnapshot, id: string): Option.Option<SnapshotPlan> =>
  Option.fromNullishOr(snapshot.plansById.get(id))

export const serviceOf = (snapshot: PricingSnapshot, id: string): Option.Option<SnapshotService> =>
  Option.fromNullishOr(snapshot.servicesById.get(id))
