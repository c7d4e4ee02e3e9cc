// The stay after the booking: check-in with room assignment, check-out, no-show.
export * from "./requests.js"
export * from "./transitions.js"
export * from "./checkIn.js"
