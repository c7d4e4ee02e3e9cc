import type { Booking } from "@hotel/domain"
import type { BookingRoomRequest } from "@hotel/persistence/booking/Bookings"

/** A room as `POST /holds` and each of `POST /bookings`' `rooms` send it, as the services take it. */
export const roomRequestOf = (room: Booking.BookingRoom): BookingRoomRequest => ({
  roomTypeId: room.room_type_id,
  ratePlanId: room.rate_plan_id,
  adults: room.adults,
  children: room.children ?? 0,
  childAges: room.child_ages ?? null,
  bedConfig: room.bed_config ?? null,
  addOns: (room.add_ons ?? []).map((addOn) => ({
    serviceId: addOn.service_id,
    modifierValues: addOn.modifier_values ?? {},
    quantity: addOn.quantity ?? 1
  })),
  promoCode: room.promo_code ?? null,
  specialNotes: room.special_notes ?? null,
  blockId: room.block_id ?? null
})
