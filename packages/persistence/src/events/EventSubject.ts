import type { ReservationRead } from "../booking/ReservationColumns.js"

// What an event is about. The outbox hands the subject to the `EventRenderer`, which turns it into the event's
// `data`: the resource as its `GET` shows it at that moment (inside the writer's transaction). A writer that
// already knows the reservation as read (a hold knows its rows before inserting them) passes it along, so the renderer does not
// read it again while the writer holds its locks; a writer that already rendered it (the representation it
// answers with) passes that rendering (`rendered`), so the request renders its resource once.

export type EventSubject =
  | {
    readonly kind: "reservation"
    readonly id: string
    readonly refundDueMinor?: bigint
    readonly read?: ReservationRead
  }
  | { readonly kind: "folio"; readonly id: string }
  | { readonly kind: "guest"; readonly id: string }
  | { readonly kind: "rate_plan"; readonly id: string }
  | { readonly kind: "interval"; readonly id: string }
  | { readonly kind: "inclusions"; readonly ratePlanId: string }
  | { readonly kind: "promo_code"; readonly id: string }
  | { readonly kind: "webhook_endpoint"; readonly id: string }
  | { readonly kind: "block"; readonly id: string }
  | { readonly kind: "rendered"; readonly data: unknown }
  | {
    readonly kind: "inventory"
    readonly roomTypeId: string
    readonly startDate: string
    readonly endDate: string
  }
  | {
    readonly kind: "availability"
    readonly roomTypeId: string
    readonly startDate: string
    readonly endDate: string
  }

export const Subject = {
  reservation: (id: string, refundDueMinor?: bigint, read?: ReservationRead): EventSubject => ({
    kind: "reservation",
    id,
    ...(refundDueMinor === undefined ? {} : { refundDueMinor }),
    ...(read === undefined ? {} : { read })
  }),
  folio: (id: string): EventSubject => ({ kind: "folio", id }),
  guest: (id: string): EventSubject => ({ kind: "guest", id }),
  ratePlan: (id: string): EventSubject => ({ kind: "rate_plan", id }),
  interval: (id: string): EventSubject => ({ kind: "interval", id }),
  inclusions: (ratePlanId: string): EventSubject => ({ kind: "inclusions", ratePlanId }),
  promoCode: (id: string): EventSubject => ({ kind: "promo_code", id }),
  /** No event is about an endpoint; its `If-Match` check renders it as `GET` does (see `EntityTag`). */
  webhookEndpoint: (id: string): EventSubject => ({ kind: "webhook_endpoint", id }),
  block: (id: string): EventSubject => ({ kind: "block", id }),
  /** The subject as its writer rendered it (a view's output, as `GET` writes it), written as the data unread. */
  rendered: (data: unknown): EventSubject => ({ kind: "rendered", data }),
  /** The nights whose inventory controls changed (a period out of order, an inventory PUT), `endDate` exclusive. */
  inventory: (roomTypeId: string, startDate: string, endDate: string): EventSubject => ({
    kind: "inventory",
    roomTypeId,
    startDate,
    endDate
  }),
  /** The nights a stay took or freed: `startDate` its check-in, `endDate` (exclusive) its check-out. */
  availability: (roomTypeId: string, startDate: string, endDate: string): EventSubject => ({
    kind: "availability",
    roomTypeId,
    startDate,
    endDate
  })
} as const
