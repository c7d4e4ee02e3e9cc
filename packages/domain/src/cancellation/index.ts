// Cancellation policy tiers, refund obligation and the terms quoted with an offer (decisions 5).
export * from "./policy.js"
