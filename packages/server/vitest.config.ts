import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["../../scripts/vitest/globalSetup.ts", "../../scripts/vitest/bundle.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
