// The light entry point: the API definition, its errors and schemas. No server, no database, no Node.
export * from "./Api.js"
export * as Errors from "./Errors.js"
export * from "./Security.js"
