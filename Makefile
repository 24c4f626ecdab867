# Two commands do everything on a fresh machine (README.md):
#   make sim    start the desktop simulator serving the API (http://127.0.0.1:9005)
#   make test   run every test (Node and XS), installing what is needed first
# Each target installs the npm dependencies first when package.json or the lock file changed.

SHELL := /bin/bash
NPM_STAMP := node_modules/.installed
MOCHA := node_modules/.bin/mocha
TSC := node_modules/.bin/tsc
ESLINT := node_modules/.bin/eslint
SIM_ARGS ?=
HOST_ARGS ?=

.PHONY: all sim host-server test build gen check lint clean bench bench-host-server fuzz bench-xs bench-instr soak browser prometheus

all: test

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Compiles what is committed; generated files are not remade here (make gen), so that
# tests/generated.test.ts can tell when one is stale.
build: $(NPM_STAMP)
	$(TSC) -p tsconfig.json

# Regenerates every generated file from its source (tests/generated.test.ts fails until it is run):
#   spec/operations.tsv -> src/api/route-table.ts, hal/entity-ops.ts, hal/entity-values.ts
#   web/                -> resources/console.html.gz (the page, stored once), src/web/console-page.ts (its ETag, sizes)
#   the route table     -> resources/openapi-sim.json.gz, resources/openapi-device.json.gz (after tsc)
gen: $(NPM_STAMP)
	node tools/gen-route-table.mjs
	node tools/build-console.mjs
	$(TSC) -p tsconfig.json
	node tools/gen-openapi.mjs

# Device-side code type-checks with no Node types at all.
check: $(NPM_STAMP)
	$(TSC) -p tsconfig.device.json

# ESLint with typescript-eslint (eslint.config.mjs): typescript-eslint's recommended rules, 300 lines
# a file, 60 a function, and no Node in device code. No type information, so it takes seconds.
lint: $(NPM_STAMP)
	$(ESLINT) --max-warnings 0 .

test: build check check-moddable browser prometheus lint
	$(MOCHA) --reporter dot --exit 'build/tests/**/*.test.js'

# The browser tests (tests/browser.test.ts, tests/console-browser.test.ts) drive Debian's chromium
# (installed here when missing) through playwright-core.
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }

# The telemetry tests (tests/prometheus.test.ts) run Debian's prometheus and its promtool (installed
# here when missing) on loopback.
prometheus:
	@command -v prometheus >/dev/null && command -v promtool >/dev/null || { apt-get update -qq && apt-get install -y -qq prometheus; }

sim: build
	node build/host-sim/main.js $(SIM_ARGS)

# The host server: one endpoint (port 9005) for every module found by DNS-SD or named with
# --module http://ADDR[:PORT] (docs/lab.md). Beside a simulator, give one of them another port:
#   make host-server HOST_ARGS="--port 9006 --module http://127.0.0.1:9005"
host-server: build
	node build/host-server/main.js $(HOST_ARGS)


# HTTP load benchmark with wrk (Debian package, installed here when missing) against the
# simulator and two baselines the script starts itself. See README.md §Performance.
bench: build
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/bench.mjs

# What the host server adds in front of 8 simulated modules: latency p50/p99 against direct, and
# throughput through it against the sum of direct (wrk, installed when missing). docs/lab.md.
bench-host-server: build
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/bench-host-server.mjs

# Machine instructions per request of the simulator's request path (valgrind's callgrind, Debian
# package, installed here when missing): a count that does not move with the machine's load.
bench-instr: build
	@command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
	node tools/bench-instr.mjs

# Memory of the simulator over 1,000,000 requests (RSS from /proc).
soak: build
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/soak.mjs

# Cost of the device-side request path inside the real XS engine (computrons, heap, bundle size),
# then of one event-stream tick, of serving the console page and of one GET /metrics scrape
# (tools/bench-events-xs.mjs).
bench-xs: build
	node tools/bench-xs.mjs
	node tools/bench-events-xs.mjs

# Long property-based fuzzing of the HTTP core (make test runs a short pass of the same properties).
FUZZ_RUNS ?= 100000
fuzz: build
	FUZZ_RUNS=$(FUZZ_RUNS) $(MOCHA) --timeout 0 build/tests/fuzz.test.js

clean:
	rm -rf build

# ---- Device build (Moddable SDK) -----------------------------------------------------------------
# make device                  build for an ESP32 module (needs $MODDABLE and the ESP-IDF set up)
# make device PLATFORM=lin     build for the Moddable desktop host (REST on port 8080); run it with
#                              mcsim $MODDABLE/build/bin/lin/mc/release/brainstem-rest/mc.so
# make device-budget           the desktop-host build inside the module's fixed XS heap (2,048 slots,
#                              32 KB of chunks, no growth: budget/manifest.json); mcsim aborts
#                              ("fixed size heap") as soon as the app needs more. Run it with
#                              mcsim $MODDABLE/build/bin/lin/mc/release/brainstem-rest-budget/mc.so
# mcconfig compiles the TypeScript with the `tsc` on PATH, so this project's tsc is put first.
# Extra mcconfig arguments: MCCONFIG_ARGS (e.g. "-d" for a debug build, "ssid=... password=...").
# DEVICE_BUILD_DIR: where mcconfig builds (its -o; default $MODDABLE/build).
PLATFORM ?= esp32
MCCONFIG_ARGS ?=
DEVICE_BUILD_DIR ?=
MCCONFIG_OUT = $(if $(DEVICE_BUILD_DIR),-o $(DEVICE_BUILD_DIR))

.PHONY: device device-budget moddable-tools check-moddable

# Explains what is missing instead of failing inside mcconfig.
moddable-tools:
	@if [ -z "$$MODDABLE" ] || [ ! -d "$$MODDABLE/build" ]; then \
		echo "make device, device-budget: MODDABLE is not set to a Moddable SDK checkout." >&2; \
		echo "  Install the SDK and build its tools (documentation/Moddable SDK - Getting Started.md)," >&2; \
		echo "  then: export MODDABLE=/path/to/moddable; export PATH=\$$PATH:\$$MODDABLE/build/bin/lin/release" >&2; \
		exit 1; \
	fi
	@command -v mcconfig >/dev/null || { echo "make device, device-budget: mcconfig is not on PATH (add \$$MODDABLE/build/bin/lin/release)" >&2; exit 1; }
	@if [ -n "$(DEVICE_BUILD_DIR)" ]; then mkdir -p "$(DEVICE_BUILD_DIR)"; fi

device: $(NPM_STAMP) moddable-tools
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" mcconfig -m -p $(PLATFORM) $(MCCONFIG_OUT) $(MCCONFIG_ARGS) manifest.json

# A change of `creation` alone does not make mcconfig rebuild: the generated mc.xs.c goes first.
device-budget: $(NPM_STAMP) moddable-tools
	rm -f "$(or $(DEVICE_BUILD_DIR),$$MODDABLE/build)"/tmp/lin/mc/*/brainstem-rest-budget/mc.xs.c
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" mcconfig -m -p lin $(MCCONFIG_OUT) $(MCCONFIG_ARGS) budget/manifest.json

# Device code (src/**, hal/types, hal/device/**) type-checked against the Moddable SDK typings.
check-moddable: $(NPM_STAMP)
	$(TSC) -p tsconfig.moddable.json
