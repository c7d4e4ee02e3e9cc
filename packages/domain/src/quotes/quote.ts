// Prices a whole stay: one rule for `GET /rates`, holds and folios alike.
//
// Line order is fixed so that a hold without add-ons has exactly the quote's lines and add-ons only ADD
// lines: room nights, then property taxes on the room / stay, then each add-on followed by its
// own tax, then property taxes on add-on revenue. A tax that comes to zero writes no line (and is not in
// `taxes`): a percent-of-add-ons tax thus appears only when add-ons are booked, instead of changing the
// amount of a line the quote already showed.
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { ZERO } from "./arith.js"
import { addOnLines } from "./addons.js"
import { type IsoDate, stayNightsOf } from "./dates.js"
import { rateToBase } from "./fx.js"
import { allocateGuests, type Guests } from "./guests.js"
import { type Entitlement, entitlementOf } from "./inclusions.js"
import type { QuoteLine } from "./lines.js"
import type { AddOn, Inclusion, Party, PricingProperty, RatePlan, RoomType, Tax } from "./model.js"
import type { PricingMemo } from "./memo.js"
import { nightContext, type PricedNight, priceNightIn } from "./nightly.js"
import { levy, onAddons, type StayFacts } from "./taxes.js"

export interface StayRequest {
  readonly plan: RatePlan
  readonly roomType: RoomType
  readonly property: PricingProperty
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  readonly party: Party
  readonly addOns?: ReadonlyArray<AddOn>
  readonly inclusions?: ReadonlyArray<Inclusion>
  /** Build each night's trace (default true); the amounts and lines are the same either way. */
  readonly trace?: boolean | undefined
  /** The request's memo, when one request prices several plans for the same stay (see memo.ts). */
  readonly memo?: PricingMemo | undefined
  /**
   * Nights that keep the amount they were booked at (a change of a reservation: same date, room type, plan and
   * party); everything computed from the nights (room revenue, taxes, totals) follows these amounts.
   */
  readonly keptNights?: ReadonlyMap<IsoDate, Amount> | undefined
}

export interface TaxAmount {
  readonly code: string
  readonly name: string
  readonly amount: Amount
}

export interface Quote {
  /** The plan currency: every line is in it. */
  readonly currency: string
  /** Base units per one unit of `currency` (1 for the base currency); null when none is configured. */
  readonly exchangeRate: Amount | null
  readonly nights: ReadonlyArray<PricedNight>
  readonly lines: ReadonlyArray<QuoteLine>
  /** Property taxes levied on this stay, in line order. */
  readonly taxes: ReadonlyArray<TaxAmount>
  readonly entitlements: ReadonlyArray<Entitlement>
  /** Sum of the room lines: nights with extra guests and discounts, no taxes or add-ons. */
  readonly roomRevenue: Amount
  /** Room revenue ÷ nights, rounded. */
  readonly nightlyRate: Amount
  /** Sum of all lines. */
  readonly total: Amount
  readonly guests: Guests
}

/** `Money.sum` of the lines' amounts, without an array of them. */
const sumOf = (lines: ReadonlyArray<QuoteLine>): Amount => {
  let total = Money.zero
  for (const line of lines) total = BigDecimal.sum(total, line.amount)
  return total
}

const taxLine = (tax: TaxAmount): QuoteLine => ({
  kind: "tax",
  description: tax.name,
  amount: tax.amount,
  revenueCategory: null,
  code: tax.code
})

const levied = (taxes: ReadonlyArray<Tax>, revenue: Amount, facts: StayFacts): Array<TaxAmount> =>
  taxes.flatMap((tax) => {
    const amount = levy(tax, revenue, facts)
    return BigDecimal.isZero(amount) ? [] : [{ code: tax.code, name: tax.name, amount }]
  })

export const priceStay = (request: StayRequest): Quote => {
  const { plan, property } = request
  const currency = plan.currency
  const guests = allocateGuests(request.party, request.roomType)
  const { checkIn, checkOut, memo } = request
  const stayNights = memo === undefined ? stayNightsOf(checkIn, checkOut) : memo.nightsOf(checkIn, checkOut)
  const nightCount = stayNights.length
  const facts: StayFacts = { property, currency, nights: nightCount, guests }

  const context = nightContext(guests, property.ageBrackets, { trace: request.trace, memo })
  const kept = request.keptNights
  const nights = stayNights.map((night) => {
    const priced = priceNightIn(plan, night, context)
    const amount = kept?.get(priced.date)
    return amount === undefined ? priced : { ...priced, amount }
  })
  const roomLines: Array<QuoteLine> = nights.map((night) => ({
    kind: "room",
    description: `Room ${night.date}`,
    amount: night.amount,
    revenueCategory: "room",
    quantity: 1,
    date: night.date
  }))
  const roomRevenue = sumOf(roomLines)
  const stayTaxes = levied(property.taxes.filter((tax) => !onAddons(tax)), roomRevenue, facts)

  const addOnLinesAll = (request.addOns ?? []).flatMap((addOn) => addOnLines(addOn, facts))
  const addOnRevenue = sumOf(addOnLinesAll.filter((line) => line.kind === "addon"))
  const addOnTaxes = levied(property.taxes.filter(onAddons), addOnRevenue, facts)

  const lines = [...roomLines, ...stayTaxes.map(taxLine), ...addOnLinesAll, ...addOnTaxes.map(taxLine)]
  const taxes = [...stayTaxes, ...addOnTaxes]
  const nightlyRate = nightCount === 0
    ? ZERO
    : Money.divide(roomRevenue, nightCount, currency)

  return {
    currency,
    exchangeRate: rateToBase(property, currency) ?? null,
    nights,
    lines,
    taxes,
    entitlements: (request.inclusions ?? []).map((inclusion) => entitlementOf(inclusion, nightCount, guests.total)),
    roomRevenue,
    nightlyRate,
    total: sumOf(lines),
    guests
  }
}
