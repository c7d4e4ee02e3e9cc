// What a confirm is asked for, by whom, and what it answers (the service is ../Confirmations.ts).
import type {
  AmountMismatch,
  Booking,
  CurrencyMismatch,
  HoldExpired,
  NoAvailability,
  NotConfirmable,
  PaymentReferenceReused,
  ReservationNotFound
} from "@hotel/domain"
import type { FolioLineRow } from "../ReservationQueries.js"

export interface ConfirmRequest extends Booking.PaymentAssertion {
  readonly paymentReference: string
}

export interface ConfirmActor {
  readonly propertyId: string
  readonly apiKeyId: string
  /** The request id of the confirm, for the audit row. */
  readonly requestId: string
}

export interface ConfirmResult {
  readonly reservationId: string
  readonly checkIn: string
  readonly checkOut: string
  readonly currency: string
  readonly alreadyConfirmed: boolean
  readonly folioVoided: boolean
  readonly lines: ReadonlyArray<FolioLineRow>
  readonly baseCurrency: string
}

export type ConfirmError =
  | ReservationNotFound
  | HoldExpired
  | NotConfirmable
  | CurrencyMismatch
  | AmountMismatch
  | PaymentReferenceReused
  | NoAvailability
