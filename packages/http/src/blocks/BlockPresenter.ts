import { Blocks } from "@hotel/domain"
import type { BlockRead } from "@hotel/persistence/blocks/BlockSql"
import type { Block } from "./Api.js"
import { moneyOrNull, timestamp, timestampOrNull } from "../common/Format.js"

/** A block as `GET /blocks/{id}` shows it: its status as of its nights' releases, each night's figures. */
export const presentBlock = ({ block, nights }: BlockRead): typeof Block.Type => ({
  id: block.id,
  name: block.name,
  room_type_id: block.room_type_id,
  rate_plan_id: block.rate_plan_id,
  status: Blocks.statusOf(block.status, nights),
  start_date: block.start_date,
  end_date: block.end_date,
  price: moneyOrNull(block.price, block.currency),
  release_at: timestampOrNull(block.release_at),
  release_days_before: block.release_days_before,
  notes: block.notes,
  created_at: timestamp(block.created_at),
  nights: nights.map((night) => ({
    date: night.date,
    units: night.units,
    picked_up: Blocks.pickedUp(night),
    remaining: Blocks.remaining(night),
    released: night.released
  }))
})
