import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"

// Every file or folder of the repository that a document names in code spans (`packages/api/src/Api.ts`,
// `persistence/platform/IdempotencyKeys.ts`, `booking/Http.ts`) exists, so the docs cannot drift from the
// layout. A name may be written from the repository's root, from the document's folder, from a package
// (`http/src/Api.ts`, or `http/platform/Gateway.ts` with its `src/` left out), or as the tail of a path
// (`booking/Http.ts`) as long as some file ends with it.

const root = path.resolve(import.meta.dirname, "../../../..")

const tracked: ReadonlyArray<string> = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((file) => file !== "")

const folders = new Set(tracked.flatMap((file) => {
  const parts = file.split("/")
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"))
}))

const exists = (candidate: string) => tracked.includes(candidate) || folders.has(candidate.replace(/\/$/, ""))

/** The spellings of `name` as a path from the root. */
const spellings = (doc: string, name: string): ReadonlyArray<string> => {
  const [pkg, ...rest] = name.split("/")
  const inPackage = pkg === undefined ? [] : [`packages/${pkg}/${rest.join("/")}`, `packages/${pkg}/src/${rest.join("/")}`]
  return [name, path.posix.normalize(path.posix.join(path.posix.dirname(doc), name)), ...inPackage]
}

const resolves = (doc: string, name: string) => {
  const tail = `/${name.replace(/\/$/, "")}`
  return spellings(doc, name).some(exists) || tracked.some((file) => file.endsWith(tail)) ||
    [...folders].some((folder) => folder.endsWith(tail))
}

// A code span that is a path: segments of word characters, at least one `/`, ending in a file extension or `/`.
const pathLike = /^(?:\.{1,2}\/)?[\w.@-]+(?:\/[\w.@*-]+)+(?:\.(?:ts|md|json|yaml|yml|sh|cjs|mjs)|\/)$/

const namedPaths = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1] ?? "")
    .filter((span) => pathLike.test(span) && !span.includes("*") && !span.startsWith("/") && !/^https?:/.test(span))

describe("the docs name only paths that exist", () => {
  it("every path in a code span of a tracked Markdown file is a file or folder of the repository", () => {
    const docs = tracked.filter((file) => file.endsWith(".md"))
    expect(docs.length).toBeGreaterThan(5)
    const missing = docs.flatMap((doc) =>
      namedPaths(readFileSync(path.join(root, doc), "utf8"))
        .filter((name) => !resolves(doc, name))
        .map((name) => `${doc}: ${name}`)
    )
    expect(missing).toEqual([])
  })

  it("recognises a path in a code span and refuses one that does not exist", () => {
    expect(namedPaths("see `packages/api/src/Api.ts` and `booking/Http.ts`, not `a.b` or `/me`")).toEqual([
      "packages/api/src/Api.ts",
      "booking/Http.ts"
    ])
    expect(resolves("docs/ARCHITECTURE.md", "api/src/Api.ts")).toBe(true)
    expect(resolves("docs/ARCHITECTURE.md", "http/src/NoSuchFile.ts")).toBe(false)
  })
})
