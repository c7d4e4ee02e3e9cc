// The workspace's test projects: each package's own vitest.config.ts. vitest 4 and later read them from the root
// configuration's `test.projects` (vitest.config.ts); this list is what it reads.
export default ["packages/*"]
