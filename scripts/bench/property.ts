// The bench property: a room type STD (50 rooms) sold by 24 rate plans — a 5-level derivation chain with
// seasonal intervals on its top, and 19 more plans, half of them derived — and a room type HOT of 5 rooms
// with one plan, on which every hold of the "hot" workload competes for the same night.

const CHAIN = ["CHAIN-0", "CHAIN-1", "CHAIN-2", "CHAIN-3", "CHAIN-4"] as const
const DERIVATIONS = [
  { derivation_type: "percent", derivation_value: "-10" },
  { derivation_type: "fixed", derivation_value: "-5.00" },
  { derivation_type: "perPerson", derivation_value: "2.50" },
  { derivation_type: "percent", derivation_value: "3" }
] as const

export const PLANS = 24
export const HOT_ROOMS = 5

const plan = (code: string, roomType: string, basePrice: string, extra: Record<string, unknown> = {}) => ({
  code,
  room_type: roomType,
  name: code,
  base_price: basePrice,
  extra_guest_charge: "30.00",
  active_for_booking_engine: true,
  active_for_channels: true,
  ...extra
})

export const benchProperty = {
  code: "BENCH",
  name: "Bench hotel",
  timezone: "Europe/Lisbon",
  base_currency: "EUR",
  currencies: [{ currency: "USD", rate_to_base: "0.920000" }],
  loyalty_points_per_usd: 10,
  age_brackets: [{ max_age: 2, extra_guest_percent: "0" }, { max_age: 12, extra_guest_percent: "50" }],
  taxes: [
    { code: "VAT", name: "VAT", kind: "percent", value: "6", applies_to: "room" },
    { code: "CITY", name: "City tax", kind: "perGuestPerNight", value: "2.00", max_nights: 7, exempt_under_age: 13 }
  ],
  cancellation_policy: [{ days_before_arrival: 7, refund_percent: 100 }, { days_before_arrival: 0, refund_percent: 0 }],
  room_types: [
    {
      code: "STD",
      name: "Standard",
      base_occupancy: 2,
      max_occupancy: 4,
      bed_configs: ["king"],
      rooms: Array.from({ length: 50 }, (_, i) => `S${100 + i}`)
    },
    {
      code: "HOT",
      name: "Hot",
      base_occupancy: 2,
      max_occupancy: 2,
      bed_configs: ["king"],
      rooms: Array.from({ length: HOT_ROOMS }, (_, i) => `H${100 + i}`)
    }
  ],
  services: [],
  rate_plans: [
    ...CHAIN.map((code, level) =>
      plan(code, "STD", "120.00", {
        default: level === 0,
        ...(level === 0 ? {} : { derived_from: CHAIN[level - 1], ...DERIVATIONS[level - 1] })
      })
    ),
    ...Array.from({ length: PLANS - CHAIN.length }, (_, i) =>
      plan(
        `OTHER-${i}`,
        "STD",
        `${100 + i}.00`,
        i % 2 === 0 ? { derived_from: "CHAIN-0", derivation_type: "percent", derivation_value: `-${i % 20}` } : {}
      )),
    plan("HOT-BAR", "HOT", "150.00")
  ]
}

/** Seasonal weekend prices on the chain's top over the quoted month (inserted through the API). */
export const seasons = [
  { name: "Early March", start_date: "2031-03-01", end_date: "2031-03-11", price_fri: "140.00", price_sat: "140.00" },
  { name: "Mid March", start_date: "2031-03-11", end_date: "2031-03-21", price_fri: "160.00", price_sat: "160.00" },
  { name: "Late March", start_date: "2031-03-21", end_date: "2031-04-01", price_fri: "150.00", price_sat: "150.00" }
]
