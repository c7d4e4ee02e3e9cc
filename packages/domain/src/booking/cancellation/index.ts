// Cancellation policy tiers, refund obligation and the terms quoted with an offer.
export * from "./policy.js"
// What a cancel now would owe, the cancel's own computation.
export * from "./quote.js"
