# syntax=docker/dockerfile:1

# Build: dependencies, the generated Prisma client and the JavaScript in dist/ (the
# service runs built JavaScript, as `npm start` does: no compiler in the running process).
FROM node:20-slim AS build
WORKDIR /app
ENV CI=true CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1
# package.json's allowScripts (which install scripts may run) needs npm >= 11.19; the
# npm bundled with node:20 would run them all, including Prisma's engine download.
RUN npm install -g npm@11.19.1
# What `npm ci` needs before the sources, so that the dependency layer is reused while
# only sources change: postinstall runs `prisma generate` and scripts/build.mjs, which
# builds the client kit (an npm workspace, which the web pages import) and the web pages.
COPY package.json package-lock.json prisma.config.ts tsconfig.json tsconfig.build.json ./
COPY prisma ./prisma
COPY clients/typescript ./clients/typescript
COPY scripts/build.mjs scripts/build-web.ts ./scripts/
COPY web ./web
RUN npm ci --no-audit --no-fund
COPY src ./src
# The service's JavaScript, then only what it runs on: no dev dependencies, none of the
# optional peers that the Prisma client would otherwise bring (the Prisma CLI,
# TypeScript, their toolchains: 270 MB of the 482 a production install had), and no
# link to the client kit's workspace, which the runtime stage does not have.
RUN npm run build && npm prune --omit=dev --omit=optional --omit=peer --workspaces=false --no-audit --no-fund

# Runtime: production dependencies, the built service, schema and migrations (applied at start).
FROM node:20-slim AS runtime
WORKDIR /app
# `docker stop` waits 10 s before SIGKILL: 2 s of grace (/ready 503, still serving) plus
# at most 5 s of closing leave room for the pool to close.
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 SHUTDOWN_GRACE_MS=2000 SHUTDOWN_TIMEOUT_MS=5000
COPY --from=build --chown=root:root /app/package.json /app/tsconfig.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/prisma ./prisma
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/web/dist ./web/dist
# Only without DATABASE_URL does the service fall back to an embedded Postgres in
# .data/postgres; the app user may write there and nowhere else.
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1 (not npm, not a shell) receives SIGTERM directly and runs the
# service's graceful shutdown. Same as `npm start`.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "dist/server.js"]
