import { packageProject } from "../../scripts/vitest/project.ts"

export default packageProject()
