import { runScript } from "./script.js"

// `held_overbooking`: the overbooking of each night of a reservation's stay (in date order) when its hold took
// them, or when a change took its current nights. A capacity lowered after a hold never takes a night from it
// (the confirm's re-check, `Inventory.roomsToKeep`, counts at least this overbooking on each night); null for
// rows written before it, which the re-check judges by the night's current overbooking.
export default runScript(`ALTER TABLE reservations ADD COLUMN held_overbooking integer[]`)
