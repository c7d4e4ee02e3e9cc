import { describe, expect, it } from "@effect/vitest"
import { statementsOf } from "../../src/database/migrations/script.js"

// A migration's script split into the statements the driver runs one at a time: a `;` ends a statement only
// outside strings, quoted names, dollar-quoted bodies and comments.

describe("a migration script's statements", () => {
  it("one per semicolon, trimmed, without empty ones", () => {
    expect(statementsOf("\nCREATE TABLE a (id int);\n\nALTER TABLE a ADD COLUMN b text;\n;\n")).toEqual([
      "CREATE TABLE a (id int)",
      "ALTER TABLE a ADD COLUMN b text"
    ])
    expect(statementsOf("ALTER TABLE reservations ADD COLUMN held integer[]")).toEqual([
      "ALTER TABLE reservations ADD COLUMN held integer[]"
    ])
  })

  it("a function body's semicolons stay in its statement; a parameter is no dollar quote", () => {
    const body = "CREATE FUNCTION f(n int) RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN $1 + 1;\nEND $$"
    const tagged = "CREATE FUNCTION g() RETURNS text LANGUAGE sql AS $fn$ SELECT 'a;b' $fn$"
    expect(statementsOf(`${body};\n${tagged};\nSELECT 1;`)).toEqual([body, tagged, "SELECT 1"])
  })

  it("strings, quoted names and comments keep their semicolons", () => {
    const text = "INSERT INTO t VALUES ('it''s; fine'); -- a note; not a statement\nCREATE TABLE \"x;y\" (id int); /* ; */ SELECT 2"
    expect(statementsOf(text)).toEqual([
      "INSERT INTO t VALUES ('it''s; fine')",
      "-- a note; not a statement\nCREATE TABLE \"x;y\" (id int)",
      "/* ; */ SELECT 2"
    ])
  })
})
