// Rate management: request bodies and the pure rules on them.
export * as Checks from "./checks.js"
export * as Fields from "./fields.js"
export * as Inclusion from "./inclusion.js"
export * as Interval from "./interval.js"
export * as PromoCode from "./promoCode.js"
export * as RatePlan from "./ratePlan.js"
