import * as Schema from "effect/Schema"
import { errorFields, notFound } from "./ApiError.js"

// A resource of another property is reported exactly as a missing one.

export class RatePlanNotFound extends Schema.TaggedError<RatePlanNotFound>()("RatePlanNotFound", errorFields, notFound("rate_plan_not_found")) {}
export class IntervalNotFound extends Schema.TaggedError<IntervalNotFound>()("IntervalNotFound", errorFields, notFound("interval_not_found")) {}
export class PromoCodeNotFound extends Schema.TaggedError<PromoCodeNotFound>()("PromoCodeNotFound", errorFields, notFound("promo_code_not_found")) {}
export class ReservationNotFound extends Schema.TaggedError<ReservationNotFound>()("ReservationNotFound", errorFields, notFound("reservation_not_found")) {}
export class BookingNotFound extends Schema.TaggedError<BookingNotFound>()("BookingNotFound", errorFields, notFound("booking_not_found")) {}
export class RoomTypeNotFound extends Schema.TaggedError<RoomTypeNotFound>()("RoomTypeNotFound", errorFields, notFound("room_type_not_found")) {}
export class RoomNotFound extends Schema.TaggedError<RoomNotFound>()("RoomNotFound", errorFields, notFound("room_not_found")) {}
export class GuestNotFound extends Schema.TaggedError<GuestNotFound>()("GuestNotFound", errorFields, notFound("guest_not_found")) {}
export class ServiceNotFound extends Schema.TaggedError<ServiceNotFound>()("ServiceNotFound", errorFields, notFound("service_not_found")) {}
export class FolioNotFound extends Schema.TaggedError<FolioNotFound>()("FolioNotFound", errorFields, notFound("folio_not_found")) {}
export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()("WebhookEndpointNotFound", errorFields, notFound("webhook_endpoint_not_found")) {}
export class OutOfOrderNotFound extends Schema.TaggedError<OutOfOrderNotFound>()("OutOfOrderNotFound", errorFields, notFound("out_of_order_not_found")) {}
export class BlockNotFound extends Schema.TaggedError<BlockNotFound>()("BlockNotFound", errorFields, notFound("block_not_found")) {}
