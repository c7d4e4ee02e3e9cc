/** A small, fully known property for API tests; `code` makes each import a separate property. */
export const propertyFile = (code: string) => ({
  code,
  name: `Test Hotel ${code}`,
  timezone: "Europe/Lisbon",
  base_currency: "EUR",
  currencies: [{ currency: "USD", rate_to_base: "0.920000" }],
  loyalty_points_per_usd: 10,
  age_brackets: [
    { max_age: 2, extra_guest_percent: "0" },
    { max_age: 12, extra_guest_percent: "50" }
  ],
  taxes: [
    { code: "VAT", name: "VAT", kind: "percent", value: "6", applies_to: "room" },
    { code: "CITY", name: "City tax", kind: "perGuestPerNight", value: "2.00", max_nights: 7, exempt_under_age: 13 }
  ],
  cancellation_policy: [
    { days_before_arrival: 7, refund_percent: 100 },
    { days_before_arrival: 2, refund_percent: 50 },
    { days_before_arrival: 0, refund_percent: 0 }
  ],
  room_types: [
    {
      code: "DBL",
      name: "Double Room",
      base_occupancy: 2,
      max_occupancy: 3,
      bed_configs: ["king", "twin"],
      rooms: ["101", "102", "103"]
    },
    { code: "STE", name: "Suite", base_occupancy: 2, max_occupancy: 4, bed_configs: ["king"], rooms: ["301"] }
  ],
  services: [
    {
      code: "BRK",
      name: "Breakfast",
      price: "15.00",
      pricing_unit: "perGuestPerNight",
      revenue_category: "fnb",
      guest_bookable: true,
      tax: { kind: "percent", value: "13" },
      modifiers: [{ key: "diet", label: "Diet", type: "select", options: ["none", "vegan"], required: false }]
    },
    {
      code: "TRF",
      name: "Airport transfer",
      price: "45.00",
      pricing_unit: "perStay",
      revenue_category: "excursions",
      guest_bookable: true,
      modifiers: [{ key: "flight", label: "Flight number", type: "text", required: true }]
    }
  ],
  rate_plans: [
    {
      code: "BAR-DBL",
      default: true,
      room_type: "DBL",
      name: "Best available rate",
      base_price: "120.00",
      extra_guest_charge: "30.00",
      active_for_booking_engine: true,
      active_for_channels: true
    },
    {
      code: "BAR-STE",
      room_type: "STE",
      name: "Suite rate",
      base_price: "250.00",
      extra_guest_charge: "40.00",
      active_for_booking_engine: true,
      active_for_channels: false
    },
    {
      code: "USD-DBL",
      room_type: "DBL",
      name: "US dollar rate",
      base_price: "130.00",
      currency: "USD",
      extra_guest_charge: "30.00",
      active_for_booking_engine: true,
      active_for_channels: true
    }
  ]
})
