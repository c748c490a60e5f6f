# The demo application with the compiled Loupe, on Node 24 LTS. Debian 13 "trixie" (glibc 2.41),
# not Alpine and not bookworm: uWebSockets.js' prebuilt binary for Node 24 is linked against
# glibc and needs glibc >= 2.38 (bookworm has 2.36); it does not load on musl.

FROM node:24-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci runs the package's `dependencies` script, which patches XState (docs/xstate-patch.md).
COPY scripts/patch-xstate.js scripts/
COPY patches patches/
# uWebSockets.js needs no install script: its binaries are inside the package.
RUN npm ci --no-audit --no-fund
COPY . .
# check-native fails the build, naming what is missing, unless uWebSockets.js loads its native binary.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && node scripts/check-native.js
# The demo's SQL routes (DATABASE_URL) need pg, a devDependency of the library that prune removed:
# installed beside the pruned tree, at the locked version, and copied in without replacing a
# package the application already has.
RUN mkdir /tmp/demo-sql && cd /tmp/demo-sql && npm init -y >/dev/null \
 && npm install --omit=dev --no-audit --no-fund "pg@$(node -p "require('/app/package-lock.json').packages['node_modules/pg'].version")" \
 && cp -Rn node_modules/. /app/node_modules/ \
 && rm -rf /tmp/demo-sql

FROM node:24-trixie-slim
WORKDIR /app
# The application files stay root-owned and read-only to the user that runs them.
COPY --from=build /app /app
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000
USER node
# node as PID 1 receives SIGTERM directly; demo/main.ts drains in-flight requests on it.
# --enable-source-maps: stack traces (error pages, profiles, the log) name the .ts sources.
CMD ["node", "--enable-source-maps", "dist/demo/main.js"]
