export * from "./errors/index.js"
export * from "./money/index.js"
export * from "./Schemas.js"
export * from "./access/ApiKey.js"
