import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"

// The repository stands on its own: no committed file points outside it for its rules.

const root = path.resolve(import.meta.dirname, "../../../..")

const trackedFiles = (): ReadonlyArray<string> =>
  execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && file !== "package-lock.json")

const outside = [/\.\.\/shared\b/, /\/work\/shared\b/, /\binterface\.md\b/]

describe("the repository is self-contained", () => {
  it("no tracked file refers to a specification outside the repository", () => {
    const offenders = trackedFiles().flatMap((file) => {
      const text = readFileSync(path.join(root, file), "utf8")
      return outside.filter((pattern) => pattern.test(text)).map((pattern) => `${file}: ${pattern.source}`)
    })
    expect(offenders).toEqual([])
  })

  it("the docs link only to files inside the repository", () => {
    const docs = trackedFiles().filter((file) => file.endsWith(".md"))
    const broken = docs.flatMap((file) => {
      const text = readFileSync(path.join(root, file), "utf8")
      return [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => !/^https?:\/\//.test(target))
        .filter((target) => !trackedFiles().includes(path.posix.normalize(path.posix.join(path.posix.dirname(file), target))))
        .map((target) => `${file} -> ${target}`)
    })
    expect(broken).toEqual([])
  })
})
