// The pricing engine's inputs: plain readonly data, already loaded and validated by the caller (persistence
// maps rows into these shapes). Money is BigDecimal; dates are `YYYY-MM-DD`. Optional scalars accept both
// `undefined` and `null`, so database rows map without ceremony.
import type { Amount } from "../money/Money.js"
import type { IsoDate, Weekday } from "./dates.js"

export type Opt<A> = A | null | undefined

export type DiscountType = "fixed" | "percent"
export type DerivationType = "percent" | "fixed" | "perPerson"
export type Frequency = "perStay" | "perNight" | "perGuest" | "perGuestPerNight"
export type TaxKind = "percent" | "perStay" | "perNight" | "perGuestPerNight"

export interface CancellationTier {
  readonly daysBeforeArrival: number
  readonly refundPercent: number
}

/** Per-weekday prices of an interval; a missing day falls back to the plan's base price. */
export type WeekdayPrices = Partial<Record<Weekday, Opt<Amount>>>

/** A seasonal interval: covers nights `startDate` up to the night before `endDate`. */
export interface Interval {
  readonly id?: string
  readonly name?: string
  readonly startDate: IsoDate
  readonly endDate: IsoDate
  readonly prices?: Opt<WeekdayPrices>
  readonly minStay?: Opt<number>
  readonly maxStay?: Opt<number>
  readonly closedToArrival?: Opt<boolean>
  readonly closedToDeparture?: Opt<boolean>
  readonly stopSell?: Opt<boolean>
  /** Overrides the plan's figure for the interval's nights only when above 0.00. */
  readonly extraGuestCharge?: Opt<Amount>
  readonly singleGuestDiscount?: Opt<Amount>
}

/** How a derived plan (promotion or not) prices from its parent; `parent` is the loaded parent plan. */
export interface Derivation {
  readonly type: DerivationType
  /** Signed: negative is a discount. */
  readonly value: Amount
  readonly parent: RatePlan
}

export interface RatePlan {
  readonly id: string
  readonly roomTypeId: string
  readonly currency: string
  readonly basePrice: Amount
  readonly extraGuestCharge: Amount
  readonly singleGuestDiscount: Amount
  readonly singleGuestDiscountType: DiscountType
  readonly derivation?: Opt<Derivation>
  readonly intervals: ReadonlyArray<Interval>
  readonly minLos?: Opt<number>
  readonly maxLos?: Opt<number>
  readonly bookingWindowStart?: Opt<IsoDate>
  readonly bookingWindowEnd?: Opt<IsoDate>
  readonly stayWindowStart?: Opt<IsoDate>
  readonly stayWindowEnd?: Opt<IsoDate>
  readonly isActive: boolean
  readonly deleted: boolean
  readonly activeForBookingEngine: boolean
  readonly activeForChannels: boolean
  readonly requiresPromoCode: boolean
  /** Overrides the property's default policy when set. */
  readonly cancellationPolicy?: Opt<ReadonlyArray<CancellationTier>>
  /**
   * A block's negotiated price (a pickup's plan): it replaces the plan's nightly price (intervals and
   * derivations included) on the nights from `from` up to the night before `to`.
   */
  readonly blockPrice?: Opt<BlockPrice>
  /**
   * The plan's per-night overrides (`POST /ari`) on the nights loaded with it, by date: they replace the
   * covering interval's price and stay rules on their night. Absent: none (the snapshot loads only the nights a
   * request reads).
   */
  readonly nights?: Opt<ReadonlyMap<IsoDate, NightOverride>>
}

/** A plan's overrides on one night; `null` means none of that field (the interval's, then the plan's, apply). */
export interface NightOverride {
  /** Only on a plan that derives from none: a derived plan follows its parent's night price. */
  readonly price: Amount | null
  readonly minStay: number | null
  readonly maxStay: number | null
  readonly closedToArrival: boolean | null
  readonly closedToDeparture: boolean | null
  readonly stopSell: boolean | null
}

export interface BlockPrice {
  readonly from: IsoDate
  readonly to: IsoDate
  readonly price: Amount
}

export interface RoomType {
  readonly baseOccupancy: number
  readonly maxOccupancy: number
}

export interface Party {
  readonly adults: number
  readonly children?: Opt<number>
  /** When present it is authoritative: the child count is its length. */
  readonly childAges?: Opt<ReadonlyArray<number>>
}

export interface ExchangeRate {
  readonly currency: string
  /** Base-currency units per one unit of `currency`. */
  readonly rateToBase: Amount
}

export interface AgeBracket {
  readonly maxAge: number
  /** Share of the extra-guest charge a child of this bracket pays, in percent. */
  readonly extraGuestPercent: Amount
}

export interface Tax {
  readonly code: string
  readonly name: string
  readonly kind: TaxKind
  /** A percentage for `percent`, otherwise an amount in the property's base currency. */
  readonly value: Amount
  /** For `percent`: the revenue it is levied on (default room). */
  readonly appliesTo?: Opt<"room" | "addons">
  readonly maxNights?: Opt<number>
  readonly exemptUnderAge?: Opt<number>
}

export interface PricingProperty {
  readonly baseCurrency: string
  readonly exchangeRates: ReadonlyArray<ExchangeRate>
  readonly ageBrackets: ReadonlyArray<AgeBracket>
  readonly taxes: ReadonlyArray<Tax>
  readonly cancellationPolicy?: Opt<ReadonlyArray<CancellationTier>>
}

/** A service's own tax rule: like a property tax, levied on the add-on line. */
export interface ServiceTax {
  readonly kind: TaxKind
  readonly value: Amount
  readonly maxNights?: Opt<number>
  readonly exemptUnderAge?: Opt<number>
}

export interface Service {
  readonly id: string
  readonly name: string
  /** In the property's base currency. */
  readonly price: Amount
  readonly pricingUnit: Frequency
  readonly revenueCategory: string
  readonly tax?: Opt<ServiceTax>
}

export interface AddOn {
  readonly service: Service
  readonly quantity: number
}

export interface Inclusion {
  readonly label: string
  readonly allocatedAmount: Amount
  readonly frequency: Frequency
  readonly inclusionKind: "perk" | "credit"
  readonly revenueCategory: string
  readonly serviceItemId?: Opt<string>
  /** Already defaulted to the plan currency by the caller. */
  readonly currency: string
  readonly includedQuantity: number
}
