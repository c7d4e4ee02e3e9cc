// What a hold is asked for, by whom, and what it answers (the service is ../Holds.ts).
import type {
  BlockNotDefinite,
  BlockNotFound,
  GuestNotFound,
  HoldLimitReached,
  InvalidParameters,
  Money,
  NoAvailability,
  PartyTooLarge,
  Pricing,
  RatePlanNotFound,
  RoomTypeNotFound,
  SalesContext,
  ServiceNotFound
} from "@hotel/domain"

export interface HoldAddOnRequest {
  readonly serviceId: string
  readonly modifierValues: Readonly<Record<string, unknown>>
  readonly quantity: number
}

export interface HoldRequest {
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly checkIn: Pricing.IsoDate
  readonly checkOut: Pricing.IsoDate
  readonly guestId: string
  readonly adults: number
  readonly children: number
  /** When present, the authoritative child count. */
  readonly childAges: ReadonlyArray<number> | null
  readonly bedConfig: string | null
  readonly addOns: ReadonlyArray<HoldAddOnRequest>
  readonly promoCode: string | null
  readonly specialNotes: string | null
  /** The block the hold picks up from (`block_id`), or null for an ordinary hold. */
  readonly blockId: string | null
}

/** Who holds: the API key's property, id and sales context (the reservation's `booking_source`). */
export interface HoldActor {
  readonly propertyId: string
  readonly apiKeyId: string
  readonly salesContext: SalesContext
}

export interface HoldCreated {
  readonly reservationId: string
  readonly folioId: string
  readonly confirmationCode: string
  readonly holdExpiresAt: Date
  readonly total: Money.Amount
  readonly currency: string
}

export type HoldError =
  | BlockNotFound
  | BlockNotDefinite
  | InvalidParameters
  | RoomTypeNotFound
  | RatePlanNotFound
  | GuestNotFound
  | ServiceNotFound
  | PartyTooLarge
  | NoAvailability
  | HoldLimitReached
