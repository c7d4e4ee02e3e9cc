// Inventory controls: the capacity rule, periods out of order, sell limits and overbooking.
export * from "./capacity.js"
export * from "./requests.js"
export * from "./controls.js"
