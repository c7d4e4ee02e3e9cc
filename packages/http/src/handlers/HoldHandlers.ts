import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Confirmations } from "@hotel/persistence/booking/Confirmations"
import { Holds } from "@hotel/persistence/booking/Holds"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { HotelApi } from "../Api.js"
import { currentRequestId } from "../Envelope.js"
import { presentConfirmation, presentHold } from "../presenters/BookingPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const HoldHandlers = HttpApiBuilder.group(HotelApi, "holds", (handlers) =>
  Effect.gen(function*() {
    const holds = yield* Holds
    const confirmations = yield* Confirmations
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const hold = yield* holds.create(
            { propertyId: key.propertyId, apiKeyId: key.id, salesContext: key.context },
            {
              roomTypeId: payload.room_type_id,
              ratePlanId: payload.rate_plan_id,
              checkIn: payload.check_in,
              checkOut: payload.check_out,
              guestId: payload.guest_id,
              adults: payload.adults,
              children: payload.children ?? 0,
              childAges: payload.child_ages ?? null,
              bedConfig: payload.bed_config ?? null,
              addOns: (payload.add_ons ?? []).map((addOn) => ({
                serviceId: addOn.service_id,
                modifierValues: addOn.modifier_values ?? {},
                quantity: addOn.quantity ?? 1
              })),
              promoCode: payload.promo_code ?? null,
              specialNotes: payload.special_notes ?? null
            }
          )
          return presentHold(hold)
        }))
      .handle("confirm", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const requestId = yield* FiberRef.get(currentRequestId)
          const result = yield* confirmations.confirm(
            { propertyId: key.propertyId, apiKeyId: key.id, requestId },
            path.id,
            {
              paymentReference: payload.payment_reference,
              paymentCurrency: payload.payment_currency ?? null,
              paymentAmount: payload.payment_amount ?? null
            }
          )
          return presentConfirmation(result)
        }))
  }))
