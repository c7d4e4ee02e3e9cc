import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { BlockNotFound, Blocks } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { Created, DateOnly, Id, IdParam, ListOf, Money, Timestamp } from "../common/Common.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"
import * as Errors from "../common/Errors.js"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { doc, tag } from "../openapi/Docs.js"

export const BlockNightView = Schema.Struct({
  date: DateOnly,
  units: Schema.Int,
  /** Rooms picked up from the block's units on the night. */
  picked_up: Schema.Int,
  /** Units still set aside (0 once released). */
  remaining: Schema.Int,
  released: Schema.Boolean
})

export const Block = Schema.Struct({
  id: Id,
  name: Schema.String,
  room_type_id: Id,
  rate_plan_id: Id,
  status: Blocks.BlockStatus,
  start_date: DateOnly,
  end_date: DateOnly,
  price: Schema.NullOr(Money),
  release_at: Schema.NullOr(Timestamp),
  release_days_before: Schema.NullOr(Schema.Int),
  notes: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  nights: Schema.Array(BlockNightView)
})

/** A status change: answers the block as `GET` returns it, `If-Match` like a PATCH. */
const transition = <Name extends string>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, "POST", { readonly id: string }>,
  summary: string,
  description: string
) =>
  endpoint
    .annotateContext(doc(summary, description))
    .setHeaders(IfMatchHeaders)
    .addSuccess(Block)
    .addError(Errors.PreconditionFailed)
    .addError(Errors.InvalidStatusTransition)

/** Blocks: reads need `blocks:read`, writes `blocks:write`. */
export class BlocksApi extends HttpApiGroup.make("blocks")
  .annotateContext(tag("Blocks", "Rooms set aside for a group or an agent over a range of nights, picked up by holds and released by the clock."))
  .add(
    HttpApiEndpoint.post("create", "/blocks")
      .annotateContext(doc("Create a block", "Sets rooms of one room type aside over a range of nights, `units` on every night or `nights` one by one. A `definite` block takes its units from general sale at once and needs them free."))
      .setPayload(Blocks.BlockCreate)
      .addSuccess(Schema.Struct({ block_id: Id }), Created)
      .addError(Errors.RoomTypeNotFound)
      .addError(Errors.RatePlanNotFound)
      .addError(Errors.NoAvailability)
  )
  .add(
    HttpApiEndpoint.get("list", "/blocks")
      .annotateContext(doc("List blocks", "The property's blocks by `start_date`, filtered by `status` when given."))
      .setUrlParams(Blocks.BlockListParams)
      .addSuccess(ListOf(Block))
      .annotate(RequiredScope, "blocks:read")
  )
  .add(
    HttpApiEndpoint.get("get")`/blocks/${IdParam}`
      .annotateContext(doc("Get a block", "One block with each night's units, pickups, remaining units and release."))
      .addSuccess(Block)
      .annotate(RequiredScope, "blocks:read")
      .annotateContext(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update")`/blocks/${IdParam}`
      .annotateContext(doc("Update a block", "Changes the name, price, notes, release times or units (`units` on every night, `nights` on the dates listed)."))
      .setPayload(Blocks.BlockPatch)
      .setHeaders(IfMatchHeaders)
      .addSuccess(Schema.Struct({ block_id: Id, updated: Schema.Literal(true) }))
      .addError(Errors.PreconditionFailed)
      .addError(Errors.BlockInUse)
      .addError(Errors.NoAvailability)
  )
  .add(
    transition(HttpApiEndpoint.post("confirm")`/blocks/${IdParam}/confirm`, "Confirm a block", "Tentative → definite: the block takes its remaining units on the nights not yet released from general sale, which needs them free.")
      .addError(Errors.NoAvailability)
  )
  .add(transition(HttpApiEndpoint.post("release")`/blocks/${IdParam}/release`, "Release a block", "Frees every remaining unit of a definite block now; its pickups stay."))
  .add(
    transition(HttpApiEndpoint.post("cancel")`/blocks/${IdParam}/cancel`, "Cancel a block", "A block with no live pickup becomes cancelled and takes nothing.")
      .addError(Errors.BlockInUse)
  )
  .annotate(RequiredScope, "blocks:write")
  .annotate(NotFoundAs, BlockNotFound)
{}

/** The `blocks` feature's endpoint groups. `Api.ts` adds them to `HotelApi`. */
export const BlocksGroups = HttpApi.make("hotel")
  .add(BlocksApi)
