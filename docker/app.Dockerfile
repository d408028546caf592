# One image for the web, worker and gateway services (APP selects the entry point at run time
# through the compose file's command). Built from the repository root: docker build -f docker/app.Dockerfile .
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps apps
COPY packages packages
COPY e2e/package.json e2e/package.json
# Services run from TypeScript sources with tsx (a dev dependency), so the full install is kept.
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PRISMA_SCHEMA_ENGINE_BINARY=/bin/true
COPY --from=deps /app/node_modules node_modules
COPY . .
RUN npm run db:generate
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
