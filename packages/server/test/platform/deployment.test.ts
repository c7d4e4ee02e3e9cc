import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { parse } from "yaml"

const root = path.resolve(import.meta.dirname, "../../../..")
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8")

interface Service {
  readonly image?: string
  readonly build?: string
  readonly command?: ReadonlyArray<string>
  readonly environment?: Record<string, string>
  readonly ports?: ReadonlyArray<string>
  readonly volumes?: ReadonlyArray<string>
  readonly depends_on?: Record<string, { readonly condition: string }>
  readonly healthcheck?: { readonly test: ReadonlyArray<string> }
}

interface Compose {
  readonly services: Record<string, Service>
  readonly volumes?: Record<string, unknown>
}

const replicas = ["api1", "api2", "api3"]

// No Docker engine runs here, so the deployment files are checked for structure; `npm run scale-out` runs the
// same topology (three compiled processes, one database, a balancer) for real.
describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile")
  const stages = dockerfile.split(/^FROM /m).slice(1)
  const runtime = stages.at(-1) ?? ""

  it("builds in one stage with the dev dependencies and runs another with production dependencies only", () => {
    expect(stages).toHaveLength(2)
    expect(stages[0]).toMatch(/RUN npm ci\b/)
    expect(stages[0]).toMatch(/RUN npm run build/)
    expect(runtime).toMatch(/RUN npm ci --omit=dev/)
    expect(runtime).toMatch(/COPY --from=build \/app\/dist \.\/dist/)
    expect(runtime).not.toMatch(/tsx|COPY packages \.\/packages/)
  })

  it("runs node on the compiled entry point as PID 1 (exec form), as a non-root user", () => {
    expect(runtime).toMatch(/^USER node$/m)
    expect(runtime).toMatch(/^CMD \["node", "--max-semi-space-size=64", "--min-semi-space-size=64", "dist\/hotel\.js", "serve"\]$/m)
    expect(runtime).toMatch(/^ENV .*HOST=0\.0\.0\.0/m)
  })

  it("declares a health check on /health/ready", () => {
    expect(runtime).toMatch(/^HEALTHCHECK .*\\\n\s+CMD \[.*\/health\/ready/m)
  })

  it("the build entry point exists and `npm run build` compiles it", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts
    expect(scripts["build"]).toMatch(/scripts\/bundle\/build\.ts/)
    expect(fs.existsSync(path.join(root, "packages/server/src/bin.ts"))).toBe(true)
  })
})

describe("docker-compose.yml", () => {
  const compose = parse(read("docker-compose.yml")) as Compose
  const service = (name: string): Service => compose.services[name] ?? {}

  it("runs Postgres with a health check and a data volume", () => {
    expect(service("db").image).toMatch(/^postgres:/)
    expect(service("db").healthcheck?.test.join(" ")).toContain("pg_isready")
    expect(Object.keys(compose.volumes ?? {})).toContain("pgdata")
  })

  it("migrates once, after the database is healthy, before any replica starts", () => {
    const migrate = service("migrate")
    expect(migrate.command).toEqual(["node", "dist/hotel.js", "migrate"])
    expect(migrate.depends_on?.["db"]?.condition).toBe("service_healthy")
    for (const name of replicas) {
      expect(service(name).depends_on?.["migrate"]?.condition).toBe("service_completed_successfully")
    }
  })

  it("runs three API replicas of the image built here, on the compose database, each health-checked", () => {
    const db = service("db")
    for (const name of replicas) {
      const api = service(name)
      expect(api.build).toBe(".")
      const url = new URL(api.environment?.["DATABASE_URL"] ?? "")
      expect(url.hostname).toBe("db")
      expect(url.username).toBe(db.environment?.["POSTGRES_USER"])
      expect(url.password).toBe(db.environment?.["POSTGRES_PASSWORD"])
      expect(url.pathname).toBe(`/${db.environment?.["POSTGRES_DB"]}`)
      expect(api.environment?.["HOST"]).toBe("0.0.0.0")
      expect(api.healthcheck?.test.join(" ")).toContain("/health/ready")
      expect(api.ports).toBeUndefined()
    }
  })

  it("publishes only the balancer, which waits for the healthy replicas", () => {
    const lb = service("lb")
    expect(lb.image).toMatch(/^haproxy:/)
    expect(lb.ports).toEqual(["3000:3000"])
    expect(lb.volumes).toContain("./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro")
    for (const name of replicas) expect(lb.depends_on?.[name]?.condition).toBe("service_healthy")
    expect(lb.healthcheck?.test.join(" ")).toContain("/lb/health")
  })
})

describe("deploy/haproxy.cfg", () => {
  const config = read("deploy/haproxy.cfg")

  it("routes round robin to all three replicas on the API port, checking /health/ready", () => {
    expect(config).toMatch(/^\s*bind :3000$/m)
    expect(config).toMatch(/^\s*balance roundrobin$/m)
    expect(config).toMatch(/^\s*option httpchk GET \/health\/ready$/m)
    const servers = [...config.matchAll(/^\s*server (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]])
    expect(servers).toEqual(replicas.map((name) => [name, `${name}:3000`]))
    expect(config).toMatch(/^\s*default-server check /m)
  })
})
