import { defineProject, type UserWorkspaceConfig } from "vitest/config"

/**
 * Inside the workspace the `@hotel/*` packages are read from their TypeScript sources: their `package.json`
 * `exports` name them under the `@hotel/source` condition (tsconfig's `customConditions`, `.npmrc`'s
 * `node-options`, the bundle's `conditions` say the same), so no test needs a build first. Packed, the same
 * packages are read from `dist/`.
 */
export const sourceCondition = "@hotel/source"

/** A package's test project: its `test/` folder, reading the workspace's packages from their sources. */
export const packageProject = (test: NonNullable<UserWorkspaceConfig["test"]> = {}) =>
  defineProject({
    // Vite's own server conditions, after ours.
    ssr: { resolve: { conditions: [sourceCondition, "module", "node", "development|production"] } },
    test: { include: ["test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000, ...test }
  })
