// The events of a block write: the block's own (`block.created`, `block.updated`, ...: its data the block as
// `GET` shows it, rendered from the writer's read after the change, so nothing reads it again) and
// `availability.changed` over the block's range when what it sets aside changed.
import { Blocks } from "@hotel/domain"
import type { PendingEvent } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import type { BlockRead } from "./BlockSql.js"
import { presentBlock } from "./BlockView.js"
import { counted } from "./roomsSetAside.js"

/** Whether the units the block sets aside differ on some night between `before` (none for a new block) and `after`. */
export const setAsideChanged = (before: BlockRead | null, after: BlockRead): boolean => {
  const was = before === null ? new Map<string, number>() : Blocks.setAside(counted(before))
  return [...Blocks.setAside(counted(after))].some(([date, units]) => (was.get(date) ?? 0) !== units)
}

export const availabilityEvent = (block: BlockRead["block"]): PendingEvent => ({
  type: "availability.changed",
  subject: Subject.availability(block.room_type_id, block.start_date, block.end_date)
})

/** `view`: `after` as the writer already rendered it for its answer. */
export const blockEvents = (
  type: PendingEvent["type"],
  before: BlockRead | null,
  after: BlockRead,
  view: ReturnType<typeof presentBlock> = presentBlock(after)
): ReadonlyArray<PendingEvent> => [
  { type, subject: Subject.rendered(view) },
  ...(setAsideChanged(before, after) ? [availabilityEvent(after.block)] : [])
]
