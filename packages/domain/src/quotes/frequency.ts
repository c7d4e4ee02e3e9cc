// How many units a per-stay / per-night / per-guest / per-guest-per-night quantity stands for. Shared by
// add-on pricing (service pricing unit) and inclusions (entitlement frequency), which multiply
// the same way: perNight by nights, perGuest by guests, perGuestPerNight by both.
import type { Frequency } from "./model.js"

export const unitsOf = (frequency: Frequency, nights: number, guests: number): number => {
  switch (frequency) {
    case "perStay":
      return 1
    case "perNight":
      return nights
    case "perGuest":
      return guests
    case "perGuestPerNight":
      return guests * nights
  }
}
