// The pure pricing engine: `priceStay` is the entry point; the rest is exposed for reuse
// (date math, guest allocation, currency conversion) and for tests. A stay's rules, the offer of one plan and
// the `/rates` listing are built on it, shared by quotes and holds.
export * from "./model.js"
export * from "./dates.js"
export * from "./guests.js"
export * from "./charges.js"
export * from "./nightly.js"
export * from "./memo.js"
export * from "./lines.js"
export * from "./fx.js"
export * from "./frequency.js"
export { fixedTaxUnits, levy, type StayFacts, type TaxRule, taxableGuests } from "./taxes.js"
export * from "./addons.js"
export * from "./inclusions.js"
export * from "./quote.js"
export * from "./stay.js"
export * from "./offer.js"
export * from "./ratesListing.js"
