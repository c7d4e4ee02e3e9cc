import { defineConfig } from "vitest/config"

// vitest 4 removed workspace files; each package keeps its own project config.
export default defineConfig({
  test: {
    projects: ["packages/*"]
  }
})
