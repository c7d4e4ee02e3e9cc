import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * Whether webhooks may go to `http` URLs and to loopback or private addresses
 * (`HOTEL_WEBHOOKS_ALLOW_PRIVATE=true`; off by default, so a key holder cannot make the server call into
 * the network it runs in).
 */
export class WebhookPolicy extends Context.Service<WebhookPolicy, {
  readonly allowPrivate: boolean
}>()("@hotel/persistence/webhooks/WebhookPolicy") {
  static readonly layer = Layer.effect(
    WebhookPolicy,
    Effect.map(
      Config.Boolean("HOTEL_WEBHOOKS_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
      (allowPrivate) => ({ allowPrivate })
    ).pipe(Effect.orDie)
  )

  static readonly allowingPrivate = Layer.succeed(WebhookPolicy, { allowPrivate: true })
}
