import { timestamp } from "@hotel/domain/common/Format"
import type { GuestRow } from "./GuestRepository.js"

/** A guest as `GET /guests/{id}` writes it and its events carry it. */
export const presentGuest = (guest: GuestRow) => ({ ...guest, created_at: timestamp(guest.created_at) })
