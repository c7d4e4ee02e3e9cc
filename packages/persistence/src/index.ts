// The package's entry point: what a process needs to reach its database. Everything else is imported by path
// (`@hotel/persistence/<feature>/<Service>`), one feature folder at a time.
export { DatabaseUrl } from "./database/DatabaseUrl.js"
export { runMigrations } from "./database/Migrations.js"
export { SqlLive } from "./database/Sql.js"
