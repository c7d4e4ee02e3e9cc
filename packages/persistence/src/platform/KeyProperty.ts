import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * Every API key names an existing property (a foreign key), so a property of a validated key that cannot be
 * found is a defect, not a 404.
 */
export const keyPropertyExists = (propertyId: string) => <A>(found: Option.Option<A>): Effect.Effect<A> =>
  Option.match(found, {
    onNone: () => Effect.die(new Error(`property ${propertyId} of a valid key is missing`)),
    onSome: Effect.succeed
  })
