import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Folio, ReservationNotFound } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { Created, IdParam } from "./Common.js"
import { FolioLine, folioFigures } from "./FoliosApi.js"

export const ChargePosted = Schema.Struct({
  /** The id of the charge line. */
  charge_id: Schema.String,
  reservation_id: Schema.String,
  folio_id: Schema.String,
  currency: Schema.String,
  /** What credits covered of the charge, in `currency` ("0.00" when none applied). */
  credit_applied: Schema.String,
  /** The lines the charge wrote: the charge line, then one `credit` line per credit consumed. */
  lines: Schema.Array(FolioLine),
  /** The folio's figures after the charge. */
  ...folioFigures
})

/** `POST /reservations/{id}/charges` (decisions 5); scope `folios:write`. */
export class ChargesApi extends HttpApiGroup.make("charges")
  .add(
    HttpApiEndpoint.post("post")`/reservations/${IdParam}/charges`
      .setPayload(Folio.ChargePost)
      .addSuccess(ChargePosted, Created)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.ServiceNotFound)
      .addError(Errors.InvalidStatusTransition)
  )
  .middleware(Authorization)
  .annotate(RequiredScope, "folios:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}
