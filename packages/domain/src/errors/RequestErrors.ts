import * as Schema from "effect/Schema"
import { conflict, errorFields, invalidRequest, meta, notFound } from "./ApiError.js"

// Errors of the wire conventions and the platform.

export class InvalidParameters extends Schema.TaggedError<InvalidParameters>()("InvalidParameters", errorFields, invalidRequest("invalid_parameters")) {}
export class InvalidJson extends Schema.TaggedError<InvalidJson>()("InvalidJson", errorFields, invalidRequest("invalid_json")) {}
export class UnknownRoute extends Schema.TaggedError<UnknownRoute>()("UnknownRoute", errorFields, notFound("unknown_route")) {}
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", errorFields, meta("method_not_allowed", "invalid_request", 405)) {}
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", errorFields, meta("payload_too_large", "invalid_request", 413)) {}
export class MissingApiKey extends Schema.TaggedError<MissingApiKey>()("MissingApiKey", errorFields, meta("missing_api_key", "authentication", 401)) {}
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", errorFields, meta("invalid_api_key", "authentication", 401)) {}
export class InsufficientScope extends Schema.TaggedError<InsufficientScope>()("InsufficientScope", errorFields, meta("insufficient_scope", "permission", 403)) {}
export class IdempotencyKeyReuse extends Schema.TaggedError<IdempotencyKeyReuse>()("IdempotencyKeyReuse", errorFields, conflict("idempotency_key_reuse")) {}
export class IdempotencyInProgress extends Schema.TaggedError<IdempotencyInProgress>()("IdempotencyInProgress", errorFields, conflict("idempotency_in_progress")) {}
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", errorFields, meta("rate_limited", "rate_limit", 429)) {}
export class MaintenanceMode extends Schema.TaggedError<MaintenanceMode>()("MaintenanceMode", { ...errorFields, estimated_end: Schema.optional(Schema.String) }, meta("maintenance_mode", "server", 503)) {}
/** The database refused to wait longer (statement, lock or pool timeout): retry shortly. */
export class DatabaseBusy extends Schema.TaggedError<DatabaseBusy>()("DatabaseBusy", errorFields, meta("database_busy", "server", 503)) {}
/** The process is stopping (`GET /health/ready` once SIGTERM arrived): a balancer sends to another instance. */
export class ShuttingDown extends Schema.TaggedError<ShuttingDown>()("ShuttingDown", errorFields, meta("shutting_down", "server", 503)) {}
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", errorFields, meta("internal_error", "server", 500)) {}
export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()("PreconditionFailed", errorFields, meta("precondition_failed", "conflict", 412)) {}
