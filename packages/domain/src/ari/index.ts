// Channel ARI in bulk (`POST /ari`, `GET /ari`): the body's checks, the rules on the plans and room types it
// names, the merge of its items, the spans of its events, and the calendar a channel reads.
export * from "./items.js"
export * from "./validate.js"
export * from "./rules.js"
export * from "./merge.js"
export * from "./changes.js"
export * from "./calendar.js"
