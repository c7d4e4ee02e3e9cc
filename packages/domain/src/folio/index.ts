export * from "./balances.js"
