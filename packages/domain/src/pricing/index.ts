// The pure pricing engine: `priceStay` is the entry point; the rest is exposed for reuse
// (date math, guest allocation, currency conversion) and for tests.
export * from "./model.js"
export * from "./dates.js"
export * from "./guests.js"
export * from "./charges.js"
export * from "./nightly.js"
export * from "./lines.js"
export * from "./fx.js"
export * from "./frequency.js"
export { fixedTaxUnits, levy, type StayFacts, type TaxRule, taxableGuests } from "./taxes.js"
export * from "./addons.js"
export * from "./inclusions.js"
export * from "./quote.js"
