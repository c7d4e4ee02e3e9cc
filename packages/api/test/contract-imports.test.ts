import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"

const src = path.resolve(import.meta.dirname, "../src")
const domainSrc = path.resolve(import.meta.dirname, "../../domain/src")

const importsOf = (file: string): ReadonlyArray<string> =>
  Array.from(fs.readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)[^"']*from\s+["']([^"']+)["']/gm), (m) => m[1] ?? "")

const resolveLocal = (from: string, specifier: string): string | undefined => {
  if (specifier.startsWith(".")) return path.resolve(path.dirname(from), specifier.replace(/\.js$/, ".ts"))
  if (specifier === "@hotel/domain") return path.join(domainSrc, "index.ts")
  if (specifier.startsWith("@hotel/domain/")) return path.join(domainSrc, `${specifier.slice("@hotel/domain/".length)}.ts`)
  return undefined
}

/** Every module the client entry point pulls in, and the packages they name. */
const closure = (entry: string) => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const specifier of importsOf(file)) {
      const local = resolveLocal(file, specifier)
      if (local !== undefined) visit(fs.existsSync(local) ? local : local.replace(/\.ts$/, "/index.ts"))
      else packages.add(specifier)
    }
  }
  visit(entry)
  return { files, packages }
}

// Clients import `@hotel/api` to derive typed clients: it must not drag in the server, the database or Node, and
// holds no feature's handlers (`Http.ts`) or presenters, and nothing of the request pipeline's implementation.
describe("the contract entry point", () => {
  const { files, packages } = closure(path.join(src, "index.ts"))

  it("reaches the API definition", () => {
    expect(files).toContain(path.join(src, "Api.ts"))
    for (const feature of ["catalog", "rates", "quotes", "booking", "stays", "folios", "guests", "platform"]) {
      expect(files).toContain(path.join(src, feature, "Api.ts"))
    }
  })

  it("imports nothing of the server, the database or Node", () => {
    const forbidden = Array.from(packages).filter((name) =>
      name.startsWith("node:") || name.startsWith("@hotel/persistence") || name.startsWith("@hotel/server") ||
      name.startsWith("@effect/platform-node") || name.startsWith("@effect/sql") || name === "pg"
    )
    expect(forbidden).toEqual([])
    const serverSide = Array.from(files).filter((file) =>
      file.startsWith(src) && /[/\\](platform[/\\](?!Api\.ts)|Http\.ts$|Presenter\.ts$|HttpLive\.ts$)/.test(file))
    expect(serverSide).toEqual([])
  })
})
