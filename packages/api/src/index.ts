// The light entry point: the API definition, its errors and schemas. No server, no database, no Node.
export * from "./Api.js"
export * as Errors from "./common/Errors.js"
export * from "./common/Security.js"
