import type * as Schema from "effect/Schema"
import type { PropertyDetails, ServiceRow } from "@hotel/persistence/catalog/CatalogRepository"
import type { Property, Service } from "@hotel/api/catalog/Api"
import { decimal, money } from "@hotel/domain/common/Format"

export const presentProperty = ({ ageBrackets, currencies, property, taxes }: PropertyDetails): typeof Property.Type => ({
  id: property.id,
  code: property.code,
  name: property.name,
  timezone: property.timezone,
  base_currency: property.base_currency,
  currencies: currencies.map((c) => ({ currency: c.currency, rate_to_base: decimal(c.rate_to_base) })),
  loyalty_points_per_usd: property.loyalty_points_per_usd,
  age_brackets: ageBrackets.map((b) => ({ max_age: b.max_age, extra_guest_percent: decimal(b.extra_guest_percent) })),
  taxes: taxes.map((t) => ({
    code: t.code,
    name: t.name,
    kind: t.kind,
    value: t.kind === "percent" ? decimal(t.value) : money(t.value, property.base_currency),
    applies_to: t.applies_to,
    max_nights: t.max_nights,
    exempt_under_age: t.exempt_under_age
  })),
  cancellation_policy: property.cancellation_policy,
  default_rate_plan_id: property.default_rate_plan_id
})

export const presentService = (service: ServiceRow, baseCurrency: string): Schema.Schema.Type<typeof Service> => ({
  id: service.id,
  code: service.code,
  name: service.name,
  price: money(service.price, baseCurrency),
  currency: baseCurrency,
  pricing_unit: service.pricing_unit,
  revenue_category: service.revenue_category,
  guest_bookable: service.guest_bookable,
  tax: service.tax === null ? null : { kind: service.tax.kind, value: service.tax.value },
  modifiers: service.modifiers
})
