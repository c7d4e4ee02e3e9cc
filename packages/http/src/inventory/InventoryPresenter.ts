import type { OutOfOrderRow } from "@hotel/persistence/inventory/OutOfOrder"
import { timestamp } from "@hotel/domain/common/Format"
import type { RoomTypeInventory } from "@hotel/persistence/inventory/Inventory"
import type { OutOfOrderPeriod, RoomTypeAvailability } from "@hotel/api/inventory/Api"

/** A period out of order as `GET /out-of-order` lists it. */
export const presentPeriod = (row: OutOfOrderRow): typeof OutOfOrderPeriod.Type => ({ ...row, created_at: timestamp(row.created_at) })

export const presentAvailability = (entry: RoomTypeInventory): typeof RoomTypeAvailability.Type => ({
  room_type_id: entry.roomTypeId,
  nights: entry.nights.map((night) => ({
    date: night.date,
    rooms: night.rooms,
    out_of_order: night.outOfOrder,
    sell_limit: night.sellLimit,
    overbooking: night.overbooking,
    taken: night.taken,
    blocked: night.blocked,
    available: night.available
  }))
})
