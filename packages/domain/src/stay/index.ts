// The stay after the booking (decisions 5): check-in with room assignment, check-out, no-show.
export * from "./requests.js"
export * from "./transitions.js"
export * from "./checkIn.js"
