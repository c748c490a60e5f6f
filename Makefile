# Thin targets over the npm scripts and docker compose. `make` alone lists them.
#
# Settings reach the server, the tests and scripts/ensure-redis.sh from the environment or the
# command line, e.g. `make run PORT=9000` or `REDIS_URL=redis://127.0.0.1:6390 make test`.
# Only the ones that are set are exported: an empty HOST is not the same as its default.
LOUPE_ENV := REDIS_URL REDIS_CLUSTER_NODES HOST PORT APP_ENV APP_DEBUG WORKERS DATABASE_URL TEST_DATABASE_URL PGHOST PGPORT
$(foreach var,$(LOUPE_ENV),$(if $(filter undefined,$(origin $(var))),,$(eval export $(var))))

SHELL := /bin/bash
COMPOSE ?= docker compose
NPM ?= npm

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets
	@echo 'Loupe: make <target>   (settings: REDIS_URL HOST PORT APP_ENV APP_DEBUG WORKERS DATABASE_URL, see README.md)'
	@awk 'BEGIN { FS = ":.*## " } /^[a-z-]+:.*## / { printf "  %-13s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

.PHONY: install
install: ## Install dependencies (npm ci) when node_modules is missing or older than package-lock.json
	@if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
		$(NPM) ci --no-audit --no-fund && touch node_modules/.package-lock.json; \
	fi
	@node scripts/patch-xstate.js
	@node scripts/check-native.js

.PHONY: build
build: install ## Compile to dist/ (npm run build)
	$(NPM) run build

.PHONY: redis
redis: ## Make sure a Redis answers at REDIS_URL (use a running one, or start one)
	@bash scripts/ensure-redis.sh

.PHONY: postgres
postgres: ## Make sure a PostgreSQL answers on PGHOST:PGPORT (127.0.0.1:5432): use a running one, or start one
	@bash scripts/ensure-postgres.sh

.PHONY: run
run: build redis ## Install, build, ensure Redis, then serve the demo application in the foreground (DATABASE_URL=postgres://…: its SQL routes too)
	$(NPM) start

.PHONY: run-sql
run-sql: build redis postgres ## As run, with the SQL routes on the local PostgreSQL (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres} $(NPM) start

.PHONY: dev
dev: install redis ## Serve from the TypeScript sources with ts-node (no build)
	$(NPM) run dev

.PHONY: test
test: install redis postgres test-tools ## Run the whole test suite against a real Redis and PostgreSQL
	$(NPM) test

.PHONY: test-tools
test-tools: ## Install what the tests drive (wrk, Chromium, redis-server) when missing
	@bash scripts/ensure-test-tools.sh

.PHONY: screenshots
screenshots: install redis postgres test-tools ## Save the README's db, HTTP client and Redis panel images (docs/images/) with headless Chromium
	npx ts-node --transpile-only scripts/screenshot-panels.ts

.PHONY: typecheck
typecheck: install ## Type-check everything (src, machines, test) without emitting
	$(NPM) run typecheck

.PHONY: bench
bench: bench-script build redis ## Benchmark Loupe against raw uWS and Fastify (npm run bench; BENCH_SOAK_SECONDS=300 adds the memory soak)
	$(NPM) run bench

# Fails early, before installing anything, when there is no bench script to run.
.PHONY: bench-script
bench-script:
	@node -e "process.exit(require('./package.json').scripts?.bench ? 0 : 1)" || \
		{ echo 'make bench: package.json has no "bench" script (npm run bench) yet.' >&2; exit 1; }

.PHONY: clean
clean: ## Remove the build output (dist/) and the tests' caches (.cache/)
	rm -rf dist .cache

.PHONY: compose-up
compose-up: ## Start Redis, PostgreSQL and the demo application with docker compose (http://127.0.0.1:8000)
	$(COMPOSE) up --build -d
	@echo 'Loupe runs on http://127.0.0.1:8000 (logs: $(COMPOSE) logs -f app; stop: make compose-down)'

.PHONY: compose-down
compose-down: ## Stop and remove the docker compose stack
	$(COMPOSE) down
