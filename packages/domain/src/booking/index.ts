// The booking flow's pure rules: request bodies, add-on modifiers, a hold's dependent fields, the quote it books
// and the promo code it freezes, confirmation codes, status transitions, payment assertion, loyalty earn and
// refund obligation.
export * from "./requests.js"
export * from "./modifiers.js"
export * from "./confirmationCode.js"
export * from "./lifecycle.js"
export * from "./holdLimits.js"
export * from "./holdChecks.js"
export * from "./bookableQuote.js"
export * from "./holdPromoCode.js"
export * from "./stayRequest.js"
export * from "./settlement.js"
export * from "./confirmation.js"
export * from "./bookingRequests.js"
export * from "./bookings.js"
