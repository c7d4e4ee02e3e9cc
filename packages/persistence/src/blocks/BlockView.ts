import { Blocks } from "@hotel/domain"
import { moneyOrNull, timestamp, timestampOrNull } from "@hotel/domain/common/Format"
import type { BlockRead } from "./BlockSql.js"

/**
 * A block as `GET /blocks/{id}` shows it and its events carry it: its status as of its nights' releases, each
 * night's figures.
 */
export const presentBlock = ({ block, nights }: BlockRead) => ({
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
    remaining: night.remaining,
    released: night.released
  }))
})
