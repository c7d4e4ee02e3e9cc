export * from "./balances.js"
export * from "./charges.js"
export * from "./credits.js"
export * from "./payments.js"
