# The demo application with the compiled Loupe. Debian (glibc), not Alpine: the prebuilt
# uWebSockets.js binaries are linked against glibc and do not load on musl.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall patches XState (see the README's "Local patch of XState").
COPY scripts/patch-xstate.js scripts/
COPY patches patches/
RUN npm ci --no-audit --no-fund
COPY . .
# check-native fails the build if uWebSockets.js would run on its slow pure-JS fallback.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && node scripts/check-native.js

FROM node:20-bookworm-slim
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
