// Changing a reservation: the request, who may change what, the nights that keep their price, the rooms the new
// stay needs, the folio's reversal lines and the money a change leaves owing or owed.
export * from "./request.js"
export * from "./target.js"
export * from "./pricing.js"
export * from "./rooms.js"
export * from "./settlement.js"
export * from "./plan.js"
export * from "./outcome.js"
