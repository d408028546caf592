# The service image (web, worker, gateway and the one-shot migrate service; compose picks the
# entry point) where a container registry is reachable. Built from the repository root:
#   docker build -f docker/app.Dockerfile -t secondshift-app:latest .
# Air-gapped servers build the same /app on the host instead (scripts/build-images.sh with
# docker/app-prebuilt.Dockerfile). Keep NODE_VERSION equal to scripts/versions.env.
ARG NODE_VERSION=24.22.3

# Stage 1: full install, Prisma client generation, bundling, then a production-only install.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1 PRISMA_SCHEMA_ENGINE_BINARY=/bin/true
COPY . .
RUN npm ci --no-audit --no-fund --loglevel=error \
 && npm run db:generate \
 && bash scripts/stage-app.sh /out

# Stage 2: the runtime — Node, git (repository sync), CA certificates, tini; no npm, no sources.
FROM node:${NODE_VERSION}-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* /usr/local/lib/node_modules/npm /usr/local/bin/npm /usr/local/bin/npx \
 && groupadd --gid 10000 secondshift \
 && useradd --uid 10000 --gid 10000 --home-dir /app --no-create-home --shell /usr/sbin/nologin secondshift
COPY --from=build /out /app
WORKDIR /app
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
USER 10000:10000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/web.mjs"]
LABEL org.opencontainers.image.title=secondshift-app
