// The stay's rules are the domain's (`Pricing`, quotes/stay.ts). The longest stay is named here for
// ../Inventory.ts, whose index range relies on it (a stay covering a night arrived at most that many days before).
import { Pricing } from "@hotel/domain"

export const maxStayNights = Pricing.maxStayNights
