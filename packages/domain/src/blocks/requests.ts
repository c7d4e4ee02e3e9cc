// Request bodies of blocks (`POST /blocks`, `PATCH /blocks/{id}`, the list's query). Field formats only: the
// rules between fields, and those that need the room type, the plan or the stored block, are ./rules.ts.
import * as Schema from "effect/Schema"
import { DateField, DecimalField, IdField, int, literal, nullable, optional, Str, text } from "../rates/fields.js"

/** The most nights a block may cover. */
export const maxBlockNights = 366

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/
const timestampMessage = "must be a timestamp such as \"2026-05-01T12:00:00Z\""

/** An RFC 3339 timestamp with its offset; read as the instant it names. */
export const TimestampField = Str.pipe(
  Schema.check(Schema.makeFilter((s) => TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s)), {
    message: timestampMessage,
    toJsonSchema: () => ({ format: "date-time" })
  }))
)

export const BlockStatus = literal("tentative", "definite", "released", "cancelled")
export type BlockStatus = typeof BlockStatus.Type

export const BlockNight = Schema.Struct({
  date: DateField,
  units: int(0, 10000)
}).annotate({ message: "must be an object with date and units" })
export type BlockNight = typeof BlockNight.Type

const Nights = Schema.Array(BlockNight).annotate({ message: "must be an array of { date, units }" }).pipe(
  Schema.check(Schema.makeFilter((nights) => nights.length <= maxBlockNights, {
    message: `must have at most ${maxBlockNights} entries`,
    toJsonSchema: () => ({ maxItems: maxBlockNights })
  }))
)

const fields = {
  name: text(1, 200),
  price: nullable(DecimalField),
  release_at: nullable(TimestampField),
  release_days_before: nullable(int(0, 365)),
  notes: nullable(text(0, 2000))
}

/** `POST /blocks`: exactly one of `units` and `nights`. */
export const BlockCreate = Schema.Struct({
  name: fields.name,
  room_type_id: IdField,
  rate_plan_id: IdField,
  start_date: DateField,
  end_date: DateField,
  units: optional(int(1, 10000)),
  nights: optional(Nights),
  status: optional(literal("tentative", "definite")),
  price: fields.price,
  release_at: fields.release_at,
  release_days_before: fields.release_days_before,
  notes: fields.notes
}).annotate({ identifier: "BlockCreate" })
export type BlockCreate = typeof BlockCreate.Type

/** `PATCH /blocks/{id}`: `units` sets every night, `nights` only the dates it lists. */
export const BlockPatch = Schema.Struct({
  name: optional(fields.name),
  price: fields.price,
  release_at: fields.release_at,
  release_days_before: fields.release_days_before,
  notes: fields.notes,
  units: optional(int(1, 10000)),
  nights: optional(Nights)
}).annotate({ identifier: "BlockPatch" })
export type BlockPatch = typeof BlockPatch.Type

export const BlockListParams = Schema.Struct({
  status: Schema.optionalKey(BlockStatus)
})
