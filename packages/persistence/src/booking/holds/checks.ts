// The rules of a hold that need the pricing snapshot are the domain's (`Booking`, from domain booking/
// holdChecks.ts, bookableQuote.ts and holdPromoCode.ts); named here as ../Holds.ts runs them, in its order of
// checks.
import { Booking } from "@hotel/domain"

export const servicesOf = Booking.addOnServices
export const { bookableQuote, checkDependentFields, frozenPromoCode } = Booking
