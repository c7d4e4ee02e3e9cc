import * as SqlClient from "effect/sql/SqlClient"
import { Currency, InvalidParameters } from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { PropertyNotFound, propertyExists } from "../platform/ApiKeyRepository.js"
import { withSpan } from "../database/Span.js"

/** A configured currency: `rate_to_base` base-currency units per one unit of `currency`. */
export interface FxRate {
  readonly property_id: string
  readonly currency: string
  readonly rate_to_base: string
}

const DECIMAL = /^\d+(\.\d+)?$/
const MAX_RATE = BigDecimal.fromBigInt(1_000_000_000n)

/** Exchange rates of a property's extra currencies (`property_currencies`). */
export class FxRepository extends Context.Service<FxRepository>()("@hotel/persistence/catalog/FxRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Sets (creating or replacing) a currency's rate to the property's base currency. */
    const setRate = (
      propertyId: string,
      currency: string,
      rate: string
    ): Effect.Effect<FxRate, PropertyNotFound | InvalidParameters> =>
      Effect.gen(function*() {
        if (!(yield* propertyExists(sql, propertyId).pipe(Effect.orDie))) {
          return yield* new PropertyNotFound({ message: `No property has the id ${propertyId}`, property_id: propertyId })
        }
        if (!Currency.isCurrency(currency)) {
          return yield* new InvalidParameters({ message: "must be an ISO 4217 currency code such as \"USD\"", param: "currency" })
        }
        const amount = DECIMAL.test(rate) ? BigDecimal.fromString(rate) : Option.none()
        if (
          Option.isNone(amount) || !BigDecimal.isPositive(amount.value) ||
          BigDecimal.isGreaterThan(amount.value, MAX_RATE)
        ) {
          return yield* new InvalidParameters({
            message: "must be a decimal string above 0 such as \"0.92\" (base-currency units per one unit)",
            param: "rate"
          })
        }
        const [property] = yield* sql<{ base_currency: string }>`
          SELECT base_currency FROM properties WHERE id = ${propertyId}`.pipe(Effect.orDie)
        if (property.base_currency === currency) {
          return yield* new InvalidParameters({
            message: `${currency} is the property's base currency; its rate is always 1`,
            param: "currency"
          })
        }
        const [row] = yield* sql<FxRate>`
          INSERT INTO property_currencies (property_id, currency, rate_to_base)
          VALUES (${propertyId}, ${currency}, ${rate})
          ON CONFLICT (property_id, currency) DO UPDATE SET rate_to_base = EXCLUDED.rate_to_base
          RETURNING property_id, currency, rate_to_base::text AS rate_to_base`.pipe(Effect.orDie)
        return row
      }).pipe(withSpan("FxRepository.setRate"))

    return { setRate } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
