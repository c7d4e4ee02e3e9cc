import type { OutOfOrderRow } from "@hotel/persistence/inventory/OutOfOrder"
import { timestamp } from "../common/Format.js"
import type { OutOfOrderPeriod } from "./Api.js"

/** A period out of order as `GET /out-of-order` lists it. */
export const presentPeriod = (row: OutOfOrderRow): typeof OutOfOrderPeriod.Type => ({ ...row, created_at: timestamp(row.created_at) })
