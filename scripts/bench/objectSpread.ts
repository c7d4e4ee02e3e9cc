// What building an object costs on this Node, by how it is written: `npx tsx scripts/bench/objectSpread.ts`.
// On Node 20 a spread followed by a property the spread object lacks (`{ ...night, own }`) leaves V8's fast
// path: about a microsecond a property, against nanoseconds for the same object written as one literal or for
// a spread whose later properties only override. The inventory's nights, the rate plans' chains and a
// reservation's read are written accordingly (see ./README.md, "Objects spread into new properties").

const ROUNDS = 200_000

const night = (i: number) => ({
  date: `2031-03-${String((i % 28) + 1).padStart(2, "0")}`,
  rooms: 50,
  outOfOrder: 0,
  sellLimit: null,
  overbooking: 0,
  capacity: 50,
  taken: i % 7,
  blocked: 0
})

const listItem = (i: number) => {
  const item: Record<string, number> = {}
  for (let k = 0; k < 12; k++) item[`field_${k}`] = i + k
  return item
}

const ways: ReadonlyArray<readonly [string, (i: number) => object]> = [
  ["one literal (9 properties)", (i) => {
    const n = night(i)
    return {
      date: n.date, rooms: n.rooms, outOfOrder: n.outOfOrder, sellLimit: n.sellLimit, overbooking: n.overbooking,
      capacity: n.capacity, taken: n.taken, blocked: n.blocked, own: 0
    }
  }],
  ["spread alone", (i) => ({ ...night(i) })],
  ["spread, then overriding a property", (i) => ({ ...night(i), taken: 1 })],
  ["spread, then one new property", (i) => ({ ...night(i), own: 0 })],
  ["spread of two objects", (i) => ({ ...night(i), ...{ own: 0, soldUnder: 0 } })],
  ["12 properties spread, then 17 new", (i) => ({
    ...listItem(i), a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: 12, m: 13, n: 14, o: 15, p: 16,
    q: 17
  })],
  ["the same with Object.assign", (i) => Object.assign(listItem(i), {
    a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: 12, m: 13, n: 14, o: 15, p: 16, q: 17
  })]
]

const nanosPerObject = (make: (i: number) => object): number => {
  let kept: object | undefined
  const started = process.hrtime.bigint()
  for (let i = 0; i < ROUNDS; i++) kept = make(i)
  if (kept === undefined) throw new Error("nothing built")
  return Number(process.hrtime.bigint() - started) / ROUNDS
}

console.log(`Node ${process.version}, ${ROUNDS} objects each, best of 5 runs (ns per object)`)
for (const [label, make] of ways) {
  const runs = Array.from({ length: 5 }, () => nanosPerObject(make))
  console.log(`${label.padEnd(36)} ${Math.min(...runs).toFixed(0).padStart(7)}`)
}
