// Blocks: rooms of one room type set aside over a range of nights, picked up by holds, released by the clock.
export * from "./requests.js"
export * from "./nights.js"
export * from "./lifecycle.js"
export * from "./price.js"
