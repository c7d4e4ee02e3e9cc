import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { parse } from "yaml"

const root = path.resolve(import.meta.dirname, "../../../..")

interface Compose {
  readonly services: Record<string, {
    readonly image?: string
    readonly build?: string
    readonly environment?: Record<string, string>
    readonly ports?: ReadonlyArray<string>
    readonly depends_on?: Record<string, { readonly condition: string }>
    readonly healthcheck?: { readonly test: ReadonlyArray<string> }
  }>
  readonly volumes?: Record<string, unknown>
}

// No Docker engine runs here, so the deployment files are checked for structure.
describe("docker-compose.yml", () => {
  const compose = parse(fs.readFileSync(path.join(root, "docker-compose.yml"), "utf8")) as Compose

  it("runs Postgres and the API built from this repository", () => {
    expect(compose.services["db"]?.image).toMatch(/^postgres:/)
    expect(compose.services["api"]?.build).toBe(".")
    expect(fs.existsSync(path.join(root, "Dockerfile"))).toBe(true)
  })

  it("points the API at the database and waits for it to be healthy", () => {
    const api = compose.services["api"]
    const db = compose.services["db"]
    const url = new URL(api?.environment?.["DATABASE_URL"] ?? "")
    expect(url.hostname).toBe("db")
    expect(url.username).toBe(db?.environment?.["POSTGRES_USER"])
    expect(url.password).toBe(db?.environment?.["POSTGRES_PASSWORD"])
    expect(url.pathname).toBe(`/${db?.environment?.["POSTGRES_DB"]}`)
    expect(api?.depends_on?.["db"]?.condition).toBe("service_healthy")
    expect(db?.healthcheck?.test.join(" ")).toContain("pg_isready")
  })

  it("publishes the API port and listens on every interface inside the container", () => {
    const api = compose.services["api"]
    expect(api?.environment?.["HOST"]).toBe("0.0.0.0")
    expect(api?.ports).toContain(`3000:${api?.environment?.["PORT"]}`)
    expect(Object.keys(compose.volumes ?? {})).toContain("pgdata")
  })

  it("the image starts the API with the README's command", () => {
    const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8")
    expect(dockerfile).toMatch(/RUN npm ci/)
    expect(dockerfile).toMatch(/CMD \["npm", "start"\]/)
  })
})
