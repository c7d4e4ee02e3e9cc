import type * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"

const demoModule = /packages[\\/]server[\\/]src[\\/]runtime[\\/]FirstStart\.ts$/
const sourcePath = "\"../../demo/harbour.json\""
const bundledPath = "\"./demo/harbour.json\""

/**
 * `hotel demo` (and the first `hotel serve`) reads `packages/server/demo/harbour.json` relative to its own
 * module; bundled, that module is in `dist/`, so the file is copied to `dist/demo/` and the relative path rewritten. The build fails if
 * the path in FirstStart.ts changes, rather than shipping a demo command that cannot find its file.
 */
export const demoPathPlugin = (outdir: string): esbuild.Plugin => ({
  name: "demo-path",
  setup(build) {
    build.onLoad({ filter: demoModule }, (args) => {
      const source = fs.readFileSync(args.path, "utf8")
      if (!source.includes(sourcePath)) {
        return { errors: [{ text: `FirstStart.ts no longer reads ${sourcePath}; update scripts/bundle/demoPath.ts` }] }
      }
      const demoFile = path.resolve(path.dirname(args.path), JSON.parse(sourcePath) as string)
      fs.mkdirSync(path.join(outdir, "demo"), { recursive: true })
      fs.copyFileSync(demoFile, path.join(outdir, "demo", path.basename(demoFile)))
      return { contents: source.replace(sourcePath, bundledPath), loader: "ts" }
    })
  }
})
