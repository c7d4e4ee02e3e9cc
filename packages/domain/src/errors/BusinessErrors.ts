import * as Schema from "effect/Schema"
import { conflict, errorFields, invalidRequest, meta } from "./ApiError.js"

// Business-rule failures of the rate, booking and folio flows.

export class NoAvailability extends Schema.TaggedError<NoAvailability>()("NoAvailability", errorFields, conflict("no_availability")) {}
export class HoldLimitReached extends Schema.TaggedError<HoldLimitReached>()("HoldLimitReached", errorFields, conflict("hold_limit_reached")) {}
export class InsufficientPoints extends Schema.TaggedError<InsufficientPoints>()("InsufficientPoints", errorFields, conflict("insufficient_points")) {}
export class HoldExpired extends Schema.TaggedError<HoldExpired>()("HoldExpired", errorFields, conflict("hold_expired")) {}
export class NotConfirmable extends Schema.TaggedError<NotConfirmable>()("NotConfirmable", errorFields, conflict("not_confirmable")) {}
export class NotCancellable extends Schema.TaggedError<NotCancellable>()("NotCancellable", errorFields, conflict("not_cancellable")) {}
export class IntervalOverlap extends Schema.TaggedError<IntervalOverlap>()("IntervalOverlap", errorFields, conflict("interval_overlap")) {}
export class RatePlanInUse extends Schema.TaggedError<RatePlanInUse>()("RatePlanInUse", errorFields, conflict("rate_plan_in_use")) {}
export class PaymentReferenceReused extends Schema.TaggedError<PaymentReferenceReused>()("PaymentReferenceReused", errorFields, conflict("payment_reference_reused")) {}
export class PromoCodeExists extends Schema.TaggedError<PromoCodeExists>()("PromoCodeExists", errorFields, conflict("promo_code_exists")) {}
export class InvalidStatusTransition extends Schema.TaggedError<InvalidStatusTransition>()("InvalidStatusTransition", errorFields, conflict("invalid_status_transition")) {}
export class PartyTooLarge extends Schema.TaggedError<PartyTooLarge>()("PartyTooLarge", errorFields, invalidRequest("party_too_large")) {}
export class CurrencyMismatch extends Schema.TaggedError<CurrencyMismatch>()("CurrencyMismatch", errorFields, invalidRequest("currency_mismatch")) {}
export class AmountMismatch extends Schema.TaggedError<AmountMismatch>()("AmountMismatch", errorFields, invalidRequest("amount_mismatch")) {}
export class DefaultRatePlanProtected extends Schema.TaggedError<DefaultRatePlanProtected>()("DefaultRatePlanProtected", errorFields, meta("default_rate_plan_protected", "permission", 403)) {}
export class NotModifiable extends Schema.TaggedError<NotModifiable>()("NotModifiable", errorFields, conflict("not_modifiable")) {}
export class RoomUnavailable extends Schema.TaggedError<RoomUnavailable>()("RoomUnavailable", errorFields, conflict("room_unavailable")) {}
export class OutOfOrderOverlap extends Schema.TaggedError<OutOfOrderOverlap>()("OutOfOrderOverlap", errorFields, conflict("out_of_order_overlap")) {}
export class BlockInUse extends Schema.TaggedError<BlockInUse>()("BlockInUse", errorFields, conflict("block_in_use")) {}
export class BlockNotDefinite extends Schema.TaggedError<BlockNotDefinite>()("BlockNotDefinite", errorFields, conflict("block_not_definite")) {}
