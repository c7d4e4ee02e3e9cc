// The visibility rule behind `rate_plan_not_found` and the offer `reasons`.
export * from "./visibility.js"
export * from "./promoCodes.js"
export * from "./localTime.js"
export * from "./offerVisibility.js"
