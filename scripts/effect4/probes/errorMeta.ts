import { getErrorMeta } from "@hotel/domain/errors/ApiError"
import { RatePlanNotFound } from "@hotel/domain/errors/NotFoundErrors"
import * as Schema from "effect/Schema"
console.log(getErrorMeta(RatePlanNotFound), Schema.isSchema(RatePlanNotFound), RatePlanNotFound.ast._tag)
const e = new RatePlanNotFound({ message: "x" })
console.log(e._tag, e.message, e instanceof Error, JSON.stringify(e), Object.keys(e))
