import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { BlockNotFound, Blocks } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import { created, DateOnly, Id, IdParam, ListOf, Money, Timestamp } from "../common/Common.js"
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
}).annotate({ identifier: "Block" })

/** A status change, `POST /blocks/:id/<change>`: answers the block as `GET` returns it, `If-Match` like a PATCH. */
const transition = { disableCodecs: true, params: IdParam, headers: IfMatchHeaders, success: Block } as const

/** What refuses every status change. */
const transitionRefusals = [Errors.PreconditionFailed, Errors.InvalidStatusTransition] as const

/** Blocks: reads need `blocks:read`, writes `blocks:write`. */
export class BlocksApi extends HttpApiGroup.make("blocks")
  .annotateMerge(tag("Blocks", "Rooms set aside for a group or an agent over a range of nights, picked up by holds and released by the clock."))
  .add(
    HttpApiEndpoint.post("create", "/blocks", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: Blocks.BlockCreate,
      success: created(Schema.Struct({ block_id: Id }).annotate({ identifier: "BlockCreated" })),
      error: [Errors.RoomTypeNotFound, Errors.RatePlanNotFound, Errors.NoAvailability]
    })
      .annotateMerge(doc("Create a block", "Sets rooms of one room type aside over a range of nights, `units` on every night or `nights` one by one. A `definite` block takes its units from general sale at once and needs them free."))
  )
  .add(
    HttpApiEndpoint.get("list", "/blocks", {
      disableCodecs: true,
      query: Blocks.BlockListParams.fields,
      success: ListOf(Block)
    })
      .annotateMerge(doc("List blocks", "The property's blocks by `start_date`, filtered by `status` when given."))
      .annotate(RequiredScope, "blocks:read")
  )
  .add(
    HttpApiEndpoint.get("get", "/blocks/:id", {
      disableCodecs: true,
      params: IdParam,
      success: Block
    })
      .annotateMerge(doc("Get a block", "One block with each night's units, pickups, remaining units and release."))
      .annotate(RequiredScope, "blocks:read")
      .annotateMerge(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update", "/blocks/:id", {
      disableCodecs: true,
      params: IdParam,
      payload: Blocks.BlockPatch,
      headers: IfMatchHeaders,
      success: Schema.Struct({ block_id: Id, updated: Schema.Literal(true) }).annotate({ identifier: "BlockUpdated" }),
      error: [Errors.PreconditionFailed, Errors.BlockInUse, Errors.NoAvailability]
    })
      .annotateMerge(doc("Update a block", "Changes the name, price, notes, release times or units (`units` on every night, `nights` on the dates listed)."))
  )
  .add(
    HttpApiEndpoint.post("confirm", "/blocks/:id/confirm", { ...transition, error: [...transitionRefusals, Errors.NoAvailability] })
      .annotateMerge(doc("Confirm a block", "Tentative → definite: the block takes its remaining units on the nights not yet released from general sale, which needs them free.")),
    HttpApiEndpoint.post("release", "/blocks/:id/release", { ...transition, error: transitionRefusals })
      .annotateMerge(doc("Release a block", "Frees every remaining unit of a definite block now; its pickups stay.")),
    HttpApiEndpoint.post("cancel", "/blocks/:id/cancel", { ...transition, error: [...transitionRefusals, Errors.BlockInUse] })
      .annotateMerge(doc("Cancel a block", "A block with no live pickup becomes cancelled and takes nothing."))
  )
  .annotate(RequiredScope, "blocks:write")
  .annotate(NotFoundAs, BlockNotFound)
{}

/** The `blocks` feature's endpoint groups. `Api.ts` adds them to `HotelApi`. */
export const BlocksGroups = HttpApi.make("hotel")
  .add(BlocksApi)
