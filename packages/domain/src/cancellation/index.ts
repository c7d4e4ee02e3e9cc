// Cancellation policy tiers, refund obligation and the terms quoted with an offer (decisions 5).
export * from "./policy.js"
// What a cancel now would owe (decisions 3.1), the cancel's own computation.
export * from "./quote.js"
