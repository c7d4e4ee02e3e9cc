import { addDays, inWindow, type IsoDate } from "../../quotes/dates.js"
import type { Opt } from "../../quotes/model.js"

// Range checks on a stay without walking its nights: a stay's nights are the contiguous dates checkIn ..
// checkOut − 1, and `YYYY-MM-DD` text orders as dates, so "every night" and "some night" are comparisons of
// the stay's ends (a quote asks them for every plan and ancestor).

/** Every night of the stay lies in the inclusive window (an empty stay trivially does). */
export const stayInWindow = (
  stay: { readonly checkIn: IsoDate; readonly checkOut: IsoDate },
  nights: number,
  start: Opt<IsoDate>,
  end: Opt<IsoDate>
): boolean => nights < 1 || (inWindow(stay.checkIn, start, end) && inWindow(addDays(stay.checkOut, -1), start, end))

/** Some night of the stay is covered by the range (`startDate` up to the night before `endDate`). */
export const coversSomeNight = (
  range: { readonly startDate: IsoDate; readonly endDate: IsoDate },
  stay: { readonly checkIn: IsoDate; readonly checkOut: IsoDate }
): boolean =>
  range.startDate < stay.checkOut && stay.checkIn < range.endDate && stay.checkIn < stay.checkOut &&
  range.startDate < range.endDate
