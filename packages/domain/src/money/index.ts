export * as Currency from "./Currency.js"
export * as Money from "./Money.js"
