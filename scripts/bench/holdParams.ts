// What each captured parameter of a hold's transaction stands for, so that both baselines that replay it (the
// pgbench script and the plain server) make a fresh hold of the request's own stay per transaction and leave
// every other value as captured: the stay's dates, its guest, the new rows' ids (made in Node, as ours makes
// them), the confirmation code and the events' ids.
import type { CapturedHold } from "./capture.js"
import type { Param } from "./recipe.js"

export type HoldPart =
  | "check_in"
  | "check_out"
  | "new_id"
  | "line_ids"
  | "guest"
  | "confirmation_code"
  | "event_id"

/** A captured hold's transaction with the stay it was captured for. */
export interface HoldRecipe {
  readonly hold: CapturedHold
  readonly roomTypeId: string
  readonly checkIn: string
  readonly checkOut: string
  /** The captured hold's guest, replaced by each transaction's own. */
  readonly guestId: string
}

/** Which part of the hold a captured parameter is, or undefined for a value replayed as captured. */
export const holdPartOf = (recipe: Omit<HoldRecipe, "roomTypeId">) => (param: Param): HoldPart | undefined => {
  const { hold } = recipe
  if (param === recipe.checkIn) return "check_in"
  if (param === recipe.checkOut) return "check_out"
  if (param === hold.reservationId || param === hold.folioId || param === hold.accommodationId) return "new_id"
  if (Array.isArray(param) && param.length === hold.lineIds.length && param.every((id, i) => id === hold.lineIds[i])) {
    return "line_ids"
  }
  if (param === recipe.guestId) return "guest"
  if (param === hold.confirmationCode) return "confirmation_code"
  if (typeof param === "string" && /^evt_[0-9a-f]{32}$/.test(param)) return "event_id"
  return undefined
}

/** The statement that counts the stay's nights (the availability decision follows its answer). */
export const inventoryIndex = (hold: CapturedHold): number => {
  const at = hold.transaction.findIndex((s) => s.sql.includes("generate_series"))
  if (at < 0) throw new Error("the captured hold ran no availability count")
  return at
}
