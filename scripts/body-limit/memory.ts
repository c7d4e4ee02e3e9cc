// Memory under oversized chunked bodies: sends `BODIES` (default 4) concurrent chunked `POST /guests` of
// `MEGABYTES` (default 100) each, without Content-Length, to a running server, and prints each answer and
// the server's peak resident memory (VmHWM from /proc, Linux) before and after.
//
//   API=http://127.0.0.1:3000 KEY=hk_... PID=<server node pid> npx tsx scripts/body-limit/memory.ts
//
// With the body counted as it streams in, every upload is answered 413 after about 1 MiB and the peak
// stays near the idle figure; a server that read bodies whole would grow by the sum of the bodies.
import * as fs from "node:fs"
import * as Http from "node:http"

const api = new URL(process.env.API ?? "http://127.0.0.1:3000")
const key = process.env.KEY ?? ""
const pid = process.env.PID ?? ""
const bodies = Number(process.env.BODIES ?? "4")
const megabytes = Number(process.env.MEGABYTES ?? "100")

const memory = (): string => {
  if (pid === "") return "(set PID to read the server's memory)"
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => status.split("\n").find((line) => line.startsWith(name))?.replace(/\s+/g, " ") ?? ""
  return `${field("VmRSS")}; peak ${field("VmHWM")}`
}

const upload = (index: number) =>
  new Promise<string>((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, "x")
    const total = megabytes * 1024 * 1024
    let sent = 0
    let answered = false
    const req = Http.request({
      host: api.hostname,
      port: api.port,
      path: "/guests",
      method: "POST",
      agent: false,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
    }, (res) => {
      answered = true
      res.resume()
      res.on("end", () => {
        req.destroy()
        resolve(`body ${index}: ${res.statusCode} after ${(sent / 1024 / 1024).toFixed(1)} MB sent`)
      })
    })
    req.on("error", (error) => {
      if (!answered) resolve(`body ${index}: ${error.message} after ${(sent / 1024 / 1024).toFixed(1)} MB sent`)
    })
    const next = () => {
      if (answered) return
      if (sent >= total) return void req.end("\"}")
      sent += chunk.length
      req.write(chunk, () => setImmediate(next))
    }
    req.write("{\"first_name\":\"A\",\"last_name\":\"B\",\"notes\":\"")
    next()
  })

console.log(`before: ${memory()}`)
const results = await Promise.all(Array.from({ length: bodies }, (_, i) => upload(i + 1)))
results.forEach((line) => console.log(line))
console.log(`after:  ${memory()}`)
