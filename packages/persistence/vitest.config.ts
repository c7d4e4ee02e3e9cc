import { packageProject } from "../../scripts/vitest/project.ts"

export default packageProject({ globalSetup: ["../../scripts/vitest/globalSetup.ts"] })
