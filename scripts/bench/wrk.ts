// The HTTP load: wrk (a native load generator, 2 threads by default) with a Lua script generated per workload.
// Each request presents a key picked at random from the key set (read from a file, one secret a line), a hold
// random dates and a random guest. The script counts statuses per thread, sums them in done() (the
// setup(thread) / thread:get pattern) and prints one JSON line with the throughput, wrk's own p50 and p99 and
// its socket errors, which runWrk parses.
import { execFile } from "node:child_process"
import { writeFileSync } from "node:fs"
import { childrenCpuMillis } from "./processes.js"

/** What a workload's requests are. */
export type Traffic =
  | { readonly kind: "get"; readonly path: string }
  /** A JSON body read once from `bodyFile`, each request with `vary` replaced by two random digits. */
  | { readonly kind: "post"; readonly path: string; readonly bodyFile: string; readonly vary: string }
  | {
    readonly kind: "hold"
    readonly roomTypeId: string
    readonly ratePlanId: string
    /** The first possible check-in (YYYY-MM-DD); each hold's is uniformly within `days` days of it. */
    readonly from: string
    readonly days: number
    readonly nights: number
    readonly adults: number
    /** One picked at random per hold (a guest may hold only 10 stays at once). */
    readonly guests: ReadonlyArray<string>
  }

/** A Lua string literal of an ASCII value (ids, paths, dates). */
const lua = (value: string): string => {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`not a plain ASCII value for the wrk script: ${value}`)
  return `"${value.replace(/["\\]/g, "\\$&")}"`
}

const requestFunction = (traffic: Traffic): string => {
  if (traffic.kind === "get") {
    return `
local path = ${lua(traffic.path)}
function request()
  headers["Authorization"] = keys[math.random(#keys)]
  return wrk.format("GET", path, headers)
end`
  }
  if (traffic.kind === "post") return postFunction(traffic)
  const fromEpoch = Date.parse(`${traffic.from}T00:00:00Z`) / 1000
  return `
local guests = { ${traffic.guests.map(lua).join(", ")} }
local body_head = ${lua(`{"room_type_id":"${traffic.roomTypeId}","rate_plan_id":"${traffic.ratePlanId}","adults":${traffic.adults},"check_in":"`)}
function request()
  headers["Authorization"] = keys[math.random(#keys)]
  local day = math.random(0, ${traffic.days - 1})
  local check_in = os.date("!%Y-%m-%d", ${fromEpoch} + day * 86400)
  local check_out = os.date("!%Y-%m-%d", ${fromEpoch} + (day + ${traffic.nights}) * 86400)
  local body = body_head .. check_in .. '","check_out":"' .. check_out .. '","guest_id":"' .. guests[math.random(#guests)] .. '"}'
  return wrk.format("POST", "/holds", headers, body)
end`
}

const postFunction = (traffic: Extract<Traffic, { kind: "post" }>): string => `
local parts = {}
do
  local file = assert(io.open(${lua(traffic.bodyFile)}, "rb"))
  local body = file:read("*a")
  file:close()
  local from = 1
  while true do
    local first, last = string.find(body, ${lua(traffic.vary)}, from, true)
    if first == nil then break end
    parts[#parts + 1] = string.sub(body, from, first - 1)
    from = last + 1
  end
  parts[#parts + 1] = string.sub(body, from)
end
local path = ${lua(traffic.path)}
function request()
  headers["Authorization"] = keys[math.random(#keys)]
  return wrk.format("POST", path, headers, table.concat(parts, string.format("%02d", math.random(0, 99))))
end`

/** The wrk script of a workload; `keysFile` holds the secrets, one a line. */
export const wrkScript = (traffic: Traffic, keysFile: string): string => `
local threads = {}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("thread_no", counter)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() * 1000 + thread_no)
  keys = {}
  for line in io.lines(${lua(keysFile)}) do
    if #line > 0 then keys[#keys + 1] = "Bearer " .. line end
  end
  headers = { ${traffic.kind !== "get" ? `["Content-Type"] = "application/json"` : ""} }
  statuses = {}
end
${requestFunction(traffic)}

function response(status, response_headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(total) do parts[#parts + 1] = string.format('"%d":%d', status, n) end
  local e = summary.errors
  io.write(string.format(
    '\\nBENCH_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"socket_errors":%d,"timeouts":%d,"statuses":{%s}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write, e.timeout, table.concat(parts, ",")))
end
`

export const writeWrkScript = (file: string, traffic: Traffic, keysFile: string): string => {
  writeFileSync(file, wrkScript(traffic, keysFile))
  return file
}

export interface WrkResult {
  readonly requests: number
  readonly seconds: number
  readonly throughput: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly statuses: Readonly<Record<string, number>>
  /** Connect, read and write errors, and requests that timed out. */
  readonly socketErrors: number
  /** wrk's own CPU (user + system) per request, ms; undefined without Linux's /proc. */
  readonly loadCpuPerRequest: number | undefined
}

interface Printed {
  readonly requests: number
  readonly duration_us: number
  readonly p50_us: number
  readonly p99_us: number
  readonly socket_errors: number
  readonly timeouts: number
  readonly statuses: Record<string, number>
}

export const runWrk = (options: {
  readonly wrk: string
  readonly baseUrl: string
  readonly script: string
  readonly threads: number
  readonly connections: number
  readonly seconds: number
}): Promise<WrkResult> =>
  new Promise((resolve, reject) => {
    const args = [
      "-t", String(options.threads), "-c", String(options.connections), "-d", `${options.seconds}s`,
      // A slow answer is a latency to report, not a timeout to drop from the histogram.
      "--timeout", "20s", "-s", options.script, `${options.baseUrl}/`
    ]
    const cpuBefore = childrenCpuMillis()
    execFile(options.wrk, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      // wrk is reaped by now, so its CPU is in this process's children's total.
      const cpuAfter = childrenCpuMillis()
      const line = /^BENCH_RESULT (.*)$/m.exec(stdout)?.[1]
      if (error !== null || line === undefined) {
        reject(new Error(`wrk ${args.join(" ")} failed: ${error?.message ?? "no result line"}\n${stdout}\n${stderr}`))
        return
      }
      const printed = JSON.parse(line) as Printed
      const seconds = printed.duration_us / 1e6
      resolve({
        requests: printed.requests,
        seconds,
        throughput: printed.requests / seconds,
        p50Ms: printed.p50_us / 1000,
        p99Ms: printed.p99_us / 1000,
        statuses: printed.statuses,
        socketErrors: printed.socket_errors + printed.timeouts,
        loadCpuPerRequest: cpuBefore === undefined || cpuAfter === undefined || printed.requests === 0
          ? undefined
          : (cpuAfter - cpuBefore) / printed.requests
      })
    })
  })
