import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { parseConnectionString } from "@hotel/persistence/database/ConnectionString"
import * as Either from "effect/Either"
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
  readonly stop_grace_period?: string
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
  // Docker Compose resolves YAML merge keys (`<<: *pgaf`).
  const compose = parse(read("docker-compose.yml"), { merge: true }) as Compose
  const service = (name: string): Service => compose.services[name] ?? {}

  const nodes = ["node1", "node2"]

  it("runs a pg_auto_failover formation: a monitor and two nodes, each health-checked on a volume of its own", () => {
    const image = read("deploy/pg_auto_failover/Dockerfile")
    expect(image).toMatch(/^FROM postgres:15/m)
    expect(image).toMatch(/apt-get install .*postgresql-15-auto-failover/)
    for (const name of ["monitor", ...nodes]) {
      expect(service(name).build).toBe("deploy/pg_auto_failover")
      expect(service(name).healthcheck?.test.join(" ")).toContain("pg_isready")
      expect(service(name).volumes).toEqual([`${name}:/var/lib/postgresql`])
      expect(Object.keys(compose.volumes ?? {})).toContain(name)
    }
    // Each container runs the image's run.sh: create, apply this deployment's failure detection, run.
    expect(image).toMatch(/^COPY monitor\.conf keeper\.conf \/etc\/hotel-pg-auto-failover\/$/m)
    expect(image).toMatch(/^COPY --chmod=755 run\.sh \/usr\/local\/bin\/hotel-pg-auto-failover$/m)
    expect(service("monitor").command?.join(" ")).toMatch(/^hotel-pg-auto-failover monitor /)
    for (const name of nodes) {
      expect(service(name).environment?.["PG_AUTOCTL_MONITOR"]).toMatch(/^postgres:\/\/autoctl_node@monitor:5432\/pg_auto_failover/)
      expect(service(name).command?.join(" ")).toMatch(new RegExp(`hotel-pg-auto-failover postgres --hostname ${name} --name ${name} --dbname hotel`))
    }
    // What a whole node's loss waits for (docs/operations.md, "Losing a whole node"): about 12 s, not the defaults' 50.
    const monitor = read("deploy/pg_auto_failover/monitor.conf")
    for (const [name, value] of [
      ["health_check_period", "1000"], ["health_check_timeout", "1000"], ["health_check_max_retries", "2"],
      ["health_check_retry_delay", "1000"], ["node_considered_unhealthy_timeout", "6000"], ["primary_demote_timeout", "6000"]
    ]) expect(monitor).toMatch(new RegExp(`^pgautofailover\\.${name} = ${value}\\b`, "m"))
    expect(read("deploy/pg_auto_failover/keeper.conf")).toMatch(/^timeout\.network_partition_timeout = 7\b/m)
    expect(read("deploy/pg_auto_failover/run.sh")).toMatch(/^exec pg_autoctl run --pgdata "\$PGDATA"$/m)
    // The standby registers once the primary answers.
    expect(service("node2").depends_on?.["node1"]?.condition).toBe("service_healthy")
  })

  it("migrates once, after both nodes are healthy, before any replica starts", () => {
    const migrate = service("migrate")
    expect(migrate.command).toEqual(["node", "dist/hotel.js", "migrate"])
    for (const name of nodes) expect(migrate.depends_on?.[name]?.condition).toBe("service_healthy")
    for (const name of replicas) {
      expect(service(name).depends_on?.["migrate"]?.condition).toBe("service_completed_successfully")
    }
  })

  it("runs three API replicas of the image built here, following the primary and reading quotes from the standby", () => {
    for (const name of replicas) {
      const api = service(name)
      expect(api.build).toBe(".")
      for (const [variable, attrs] of [["DATABASE_URL", "read-write"], ["DATABASE_READ_URL", "prefer-standby"]] as const) {
        const url = Either.getOrThrow(parseConnectionString(api.environment?.[variable] ?? ""))
        expect(url.hosts).toEqual(nodes.map((host) => ({ host, port: 5432 })))
        expect(url.targetSessionAttrs).toBe(attrs)
        expect(url.urlFor({ host: "node1", port: 5432 })).toMatch(/^postgres:\/\/postgres@node1:5432\/hotel/)
      }
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

  it("takes a stopping replica out of rotation within its drain delay; compose waits for the whole stop", () => {
    const check = /^\s*default-server check inter (\d+)s fall (\d+) /m.exec(config)
    const outWithinMs = Number(check?.[1]) * Number(check?.[2]) * 1000
    expect(outWithinMs).toBeGreaterThan(0)
    const compose = parse(read("docker-compose.yml")) as Compose
    for (const name of replicas) {
      const api = compose.services[name]
      const delayMs = Number(api?.environment?.["HOTEL_DRAIN_DELAY_MS"])
      expect(delayMs).toBeGreaterThan(outWithinMs)
      // The delay, then up to 1 s to close the listener and 10 s for the requests in flight.
      expect(Number(/^(\d+)s$/.exec(api?.stop_grace_period ?? "")?.[1]) * 1000).toBeGreaterThan(delayMs + 11_000)
    }
  })
})
