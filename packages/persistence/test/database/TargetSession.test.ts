import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { TargetSessionAttrs } from "../../src/database/ConnectionString.js"
import { accepts, chooseHost, decided, type ServerRole, sessionRule } from "../../src/database/TargetSession.js"

// libpq's choice among several hosts, as pure functions.

const primary: ServerRole = { inRecovery: false, readOnly: false }
const standby: ServerRole = { inRecovery: true, readOnly: true }
const readOnlyPrimary: ServerRole = { inRecovery: false, readOnly: true }

const allAttrs: ReadonlyArray<TargetSessionAttrs> = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"]

describe("target_session_attrs", () => {
  it("which servers each kind of session accepts", () => {
    expect([accepts("read-write", primary), accepts("read-write", standby), accepts("read-write", readOnlyPrimary)])
      .toEqual([true, false, false])
    expect([accepts("primary", primary), accepts("primary", standby), accepts("primary", readOnlyPrimary)])
      .toEqual([true, false, true])
    expect([accepts("read-only", primary), accepts("read-only", standby), accepts("read-only", readOnlyPrimary)])
      .toEqual([false, true, true])
    expect([accepts("standby", primary), accepts("standby", standby)]).toEqual([false, true])
    expect([accepts("any", primary), accepts("any", standby)]).toEqual([true, true])
  })

  it("read-write takes the primary wherever it is in the list, and nothing while there is none", () => {
    expect(chooseHost("read-write", [standby, primary])).toBe(1)
    expect(chooseHost("read-write", [undefined, standby, primary])).toBe(2)
    expect(chooseHost("read-write", [undefined, standby])).toBeUndefined()
  })

  it("prefer-standby takes a standby first, else the first server that answers", () => {
    expect(chooseHost("prefer-standby", [primary, standby])).toBe(1)
    expect(chooseHost("prefer-standby", [undefined, primary])).toBe(1)
    expect(chooseHost("prefer-standby", [undefined, undefined])).toBeUndefined()
    // A promoted standby is still acceptable to a session already opened on it.
    expect(sessionRule("prefer-standby")).toBe("any")
    expect(sessionRule("read-write")).toBe("read-write")
  })

  it("the first acceptable host of the first pass is decided as soon as it answers, whatever follows", () => {
    const role = fc.constantFrom<ServerRole | undefined>(primary, standby, readOnlyPrimary, undefined)
    fc.assert(fc.property(fc.constantFrom(...allAttrs), fc.array(role, { maxLength: 5 }), fc.array(role, { maxLength: 3 }),
      (attrs, asked, rest) => {
        if (decided(attrs, asked)) expect(chooseHost(attrs, [...asked, ...rest])).toBe(chooseHost(attrs, asked))
        const chosen = chooseHost(attrs, asked)
        if (chosen !== undefined) expect(asked[chosen]).toBeDefined()
      }))
  })
})
