# Two commands do everything on a fresh machine (README.md):
#   make sim    start the desktop simulator serving the API (http://127.0.0.1:9005)
#   make test   run every test (Node and XS), installing what is needed first
# Each target installs the npm dependencies first when package.json or the lock file changed.

SHELL := /bin/bash
NPM_STAMP := node_modules/.installed
MOCHA := node_modules/.bin/mocha
TSC := node_modules/.bin/tsc
SIM_ARGS ?=

.PHONY: all sim test build check clean bench fuzz bench-xs

all: test

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: $(NPM_STAMP)
	$(TSC) -p tsconfig.json

# Device-side code type-checks with no Node types at all.
check: $(NPM_STAMP)
	$(TSC) -p tsconfig.device.json

test: build check
	$(MOCHA) --reporter dot 'build/tests/**/*.test.js'

sim: build
	node build/host-sim/main.js $(SIM_ARGS)

# HTTP load benchmark with wrk (Debian package, installed here when missing) against the
# simulator and two baselines the script starts itself. See README.md §Performance.
bench: build
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/bench.mjs

# Cost of the device-side request path inside the real XS engine (computrons, heap, bundle size).
bench-xs: build
	node tools/bench-xs.mjs

# Long property-based fuzzing of the HTTP core (make test runs a short pass of the same properties).
FUZZ_RUNS ?= 20000
fuzz: build
	FUZZ_RUNS=$(FUZZ_RUNS) $(MOCHA) --timeout 0 build/tests/fuzz.test.js

clean:
	rm -rf build
