export * from "./destinations.js"
export * from "./retries.js"
export * from "./types.js"
