export * from "./ApiError.js"
export * from "./BusinessErrors.js"
export * from "./NotFoundErrors.js"
export * from "./RequestErrors.js"
