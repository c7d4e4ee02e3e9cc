import * as OpenApi from "effect/http-api/OpenApi"

/** An endpoint's summary (one line, the docs page's menu entry) and description (what it does, when to use it). */
export const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

/** A group's tag: the heading it appears under in the docs page, and what the heading covers. */
export const tag = (title: string, description: string) => OpenApi.annotations({ title, description })
