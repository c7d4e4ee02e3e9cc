import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import {
  type AddOnRequest,
  addOnServices,
  type BookableService,
  checkAddOns,
  checkBedConfig,
  checkDependentFields,
  checkPartyFits
} from "../../src/booking/holdChecks.js"
import type { ModifierSpec } from "../../src/booking/modifiers.js"

/** `Tag param: message`, or the value. */
const outcome = <A>(either: Result.Result<A, { readonly _tag: string; readonly message: string; readonly param?: string | undefined }>) =>
  Result.match(either, {
    onFailure: (error) => `${error._tag} ${error.param ?? "-"}: ${error.message}`,
    onSuccess: (value) => value
  })

const diet: ModifierSpec = { key: "diet", type: "select", options: ["vegan", "none"], required: true }
const note: ModifierSpec = { key: "note", type: "text", required: false }
const service = (code: string, overrides: Partial<BookableService> = {}): BookableService => ({
  code,
  guestBookable: true,
  modifiers: [],
  ...overrides
})
const addOn = (modifierValues: Readonly<Record<string, unknown>> = {}): AddOnRequest => ({ serviceId: "x", modifierValues })

describe("addOnServices", () => {
  const catalogue = { servicesById: new Map([["park", "Parking"], ["spa", "Spa"]]) }
  const ids = (...serviceIds: ReadonlyArray<string>) => ({ addOns: serviceIds.map((serviceId) => ({ serviceId })) })

  it.each([
    { case: "none asked", ids: [], expected: [] },
    { case: "each add-on's, in request order, repeats kept", ids: ["spa", "park", "spa"], expected: ["Spa", "Parking", "Spa"] },
    { case: "an unknown one", ids: ["park", "golf"], expected: "ServiceNotFound -: No service golf" },
    { case: "the first unknown, in request order", ids: ["golf", "park", "bike"], expected: "ServiceNotFound -: No service golf" }
  ])("$case", ({ expected, ids: asked }) => {
    expect(outcome(addOnServices(catalogue, ids(...asked)))).toEqual(expected)
  })
})

describe("checkBedConfig", () => {
  it.each([
    { case: "none asked", bedConfig: null, offered: [], expected: "ok" },
    { case: "none asked, some offered", bedConfig: null, offered: ["king"], expected: "ok" },
    { case: "one offered", bedConfig: "twin", offered: ["king", "twin"], expected: "ok" },
    {
      case: "one not offered: the message lists the offered ones",
      bedConfig: "bunk",
      offered: ["king", "twin"],
      expected: "InvalidParameters bed_config: bed_config: the room type offers \"king\", \"twin\""
    },
    {
      case: "the room type offers none",
      bedConfig: "king",
      offered: [],
      expected: "InvalidParameters bed_config: bed_config: the room type offers none"
    },
    {
      case: "compared exactly (case matters)",
      bedConfig: "King",
      offered: ["king"],
      expected: "InvalidParameters bed_config: bed_config: the room type offers \"king\""
    }
  ])("$case", ({ bedConfig, expected, offered }) => {
    expect(outcome(Result.map(checkBedConfig(bedConfig, offered), () => "ok"))).toBe(expected)
  })
})

describe("checkAddOns", () => {
  it.each<{ case: string; addOns: ReadonlyArray<AddOnRequest>; services: ReadonlyArray<BookableService>; expected: unknown }>([
    { case: "no add-on", addOns: [], services: [], expected: [] },
    {
      case: "the values each keeps: declared keys with a value, null as not given",
      addOns: [addOn({ diet: "vegan", note: null }), addOn()],
      services: [service("BRK", { modifiers: [diet, note] }), service("PARK")],
      expected: [{ diet: "vegan" }, {}]
    },
    {
      case: "a service guests cannot book, on its add-on's path",
      addOns: [addOn(), addOn()],
      services: [service("PARK"), service("STAFF", { guestBookable: false })],
      expected: "InvalidParameters add_ons[1].service_id: add_ons[1].service_id: the service STAFF cannot be booked by guests"
    },
    {
      case: "not guest-bookable is told before its values",
      addOns: [addOn({ wrong: 1 })],
      services: [service("STAFF", { guestBookable: false })],
      expected: "InvalidParameters add_ons[0].service_id: add_ons[0].service_id: the service STAFF cannot be booked by guests"
    },
    {
      case: "a missing required modifier, on its full path",
      addOns: [addOn(), addOn({})],
      services: [service("PARK"), service("BRK", { modifiers: [diet] })],
      expected: "InvalidParameters add_ons[1].modifier_values.diet: add_ons[1].modifier_values.diet: is required by this service"
    },
    {
      case: "the first add-on in error wins",
      addOns: [addOn({ diet: "fish" }), addOn()],
      services: [service("BRK", { modifiers: [diet] }), service("STAFF", { guestBookable: false })],
      expected: "InvalidParameters add_ons[0].modifier_values.diet: add_ons[0].modifier_values.diet: must be one of \"vegan\", \"none\""
    },
    {
      case: "an unknown key",
      addOns: [addOn({ colour: "red" })],
      services: [service("PARK")],
      expected: "InvalidParameters add_ons[0].modifier_values.colour: add_ons[0].modifier_values.colour: is not a modifier of this service (the service takes no modifiers)"
    }
  ])("$case", ({ addOns, expected, services }) => {
    expect(outcome(checkAddOns(addOns, services))).toEqual(expected)
  })

  it("add-ons of guest-bookable services without modifiers always pass, keeping nothing", () => {
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 10 }), (codes) => {
      const kept = checkAddOns(codes.map(() => addOn()), codes.map((code) => service(code)))
      expect(kept).toEqual(Result.succeed(codes.map(() => ({}))))
    }))
  })

  it("one add-on of a service guests cannot book refuses the hold, on that add-on's index", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.nat(), (count, seed) => {
      const bad = seed % count
      const checked = checkAddOns(
        Array.from({ length: count }, () => addOn()),
        Array.from({ length: count }, (_, i) => service(`S${i}`, { guestBookable: i !== bad }))
      )
      expect(Result.isFailure(checked) ? checked.failure.param : null).toBe(`add_ons[${bad}].service_id`)
    }))
  })
})

describe("checkDependentFields", () => {
  const request = (bedConfig: string | null, addOns: ReadonlyArray<AddOnRequest>) => ({ bedConfig, addOns })

  it("the bed configuration first, then the add-ons", () => {
    const staff = [service("STAFF", { guestBookable: false })]
    expect(outcome(checkDependentFields(request("bunk", [addOn()]), ["king"], staff))).toMatch(/^InvalidParameters bed_config:/)
    expect(outcome(checkDependentFields(request("king", [addOn()]), ["king"], staff))).toMatch(/^InvalidParameters add_ons\[0\]\.service_id:/)
    expect(outcome(checkDependentFields(request(null, [addOn({ diet: "none" })]), [], [service("BRK", { modifiers: [diet] })]))).toEqual([
      { diet: "none" }
    ])
  })
})

describe("checkPartyFits", () => {
  it.each([
    [1, 2, "fits"],
    [2, 2, "fits"],
    [3, 2, "PartyTooLarge -: A party of 3 exceeds the room type's maximum occupancy of 2"],
    [5, 4, "PartyTooLarge -: A party of 5 exceeds the room type's maximum occupancy of 4"]
  ])("a party of %i in a room type for %i: %s", (party, occupancy, expected) => {
    expect(outcome(Result.map(checkPartyFits(party, occupancy), () => "fits"))).toBe(expected)
  })

  it("refuses exactly the parties larger than the room type", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), (party, occupancy) =>
      Result.isFailure(checkPartyFits(party, occupancy)) === party > occupancy))
  })
})
