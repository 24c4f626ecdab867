# Two commands do everything on a fresh machine (README.md); `make help` lists every target:
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

.PHONY: all help sim host-server test build gen check lint clean firmware-image bench bench-host-server fuzz bench-xs bench-instr soak browser examples-deps prometheus mdns-tools

all: test

# `make help`: every target with a `## ` description, one line each.
help: ## list the targets
	@awk -F':.*## ' 'BEGIN { n = 0; w = 0 } /^[a-z][a-z0-9-]*:.*## / { name[n] = $$1; what[n++] = $$2; if (length($$1) > w) w = length($$1) } \
		END { for (i = 0; i < n; i++) printf "  make %-" w "s  %s\n", name[i], what[i] }' $(MAKEFILE_LIST)

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Compiles what is committed; generated files are not remade here (make gen), so that
# tests/generated.test.ts can tell when one is stale. Nothing runs when no source changed since the
# last build (the stamp), and tsc recompiles only what a change touches (its build info in build/).
TS_SOURCES := $(shell find src hal host-sim host-server util tools tests -name '*.ts')
BUILD_STAMP := build/.built
TSC_BUILD := $(TSC) -p tsconfig.json --incremental --tsBuildInfoFile build/.tsbuildinfo

build: $(BUILD_STAMP) ## compile the TypeScript into build/

$(BUILD_STAMP): $(NPM_STAMP) tsconfig.json $(TS_SOURCES)
	$(TSC_BUILD)
	@touch $@

# Regenerates every generated file from its source (tests/generated.test.ts fails until it is run):
#   spec/operations.tsv -> src/api/route/route-table.ts, hal/entity-ops.ts, hal/entity-values.ts
#   web/                -> resources/console.html.gz (the page, stored once), src/web/console-page.ts (its ETag, sizes)
#   the route table     -> resources/openapi-sim.json.gz, resources/openapi-device.json.gz (after tsc)
gen: $(NPM_STAMP) ## regenerate every generated file from its source
	node tools/gen-route-table.mjs
	node tools/build-console.mjs
	$(TSC_BUILD)
	node tools/gen-openapi.mjs

# Device-side code type-checks with no Node types at all.
check: $(NPM_STAMP) ## type-check the device-side code with no Node types
	$(TSC) -p tsconfig.device.json

# ESLint with typescript-eslint (eslint.config.mjs): typescript-eslint's recommended rules, 300 lines
# a file, 60 a function, and no Node in device code. No type information, so it takes seconds.
lint: $(NPM_STAMP) ## ESLint: recommended rules, 300 lines a file, 60 a function
	$(ESLINT) --max-warnings 0 .

# A test's default time limit is 10 s, not mocha's 2 s: the suite starts real processes, browsers and XS
# engines on a 2-core machine, and no test judges speed (benchmarks do).
test: build check check-moddable browser examples-deps prometheus mdns-tools lint ## run every test (Node, XS, Chromium, Prometheus), installing what is needed
	$(MOCHA) --reporter dot --timeout 10000 --exit 'build/tests/**/*.test.js'

# The client examples (examples/, run by tests/examples.test.ts) need curl and Python's requests
# (Debian packages, installed here when missing).
examples-deps: ## install curl and python3-requests when missing (for the client examples)
	@command -v curl >/dev/null || { apt-get update -qq && apt-get install -y -qq curl; }
	@python3 -c 'import requests' 2>/dev/null || /usr/bin/python3 -c 'import requests' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-requests; }

# The browser tests (tests/browser.test.ts, tests/console-browser.test.ts) drive Debian's chromium
# (installed here when missing) through playwright-core.
browser: ## install Debian's chromium when missing (for the browser tests)
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }

# The DNS-SD rack test (tests/lab-rack.test.ts) browses with two independent implementations inside a
# network namespace: python-zeroconf and avahi (avahi-daemon on a private D-Bus, avahi-browse), Debian
# packages installed here when missing.
mdns-tools: ## install python3-zeroconf, avahi and D-Bus when missing (for the DNS-SD rack test)
	@/usr/bin/python3 -c 'import zeroconf' 2>/dev/null && command -v avahi-daemon >/dev/null && command -v avahi-browse >/dev/null && command -v dbus-daemon >/dev/null || { apt-get update -qq && apt-get install -y -qq python3-zeroconf avahi-daemon avahi-utils dbus; }

# The telemetry tests (tests/prometheus.test.ts) run Debian's prometheus and its promtool (installed
# here when missing) on loopback.
prometheus: ## install Debian's prometheus and promtool when missing (for the telemetry tests)
	@command -v prometheus >/dev/null && command -v promtool >/dev/null || { apt-get update -qq && apt-get install -y -qq prometheus; }

sim: build ## start the simulator on http://127.0.0.1:9005 (options: SIM_ARGS="...")
	node build/host-sim/main.js $(SIM_ARGS)

# The host server: one endpoint (port 9005) for every module found by DNS-SD or named with
# --module http://ADDR[:PORT] (docs/lab.md). Beside a simulator, give one of them another port:
#   make host-server HOST_ARGS="--port 9006 --module http://127.0.0.1:9005"
host-server: build ## start the host server on port 9005 in front of a lab of modules (HOST_ARGS="...")
	node build/host-server/main.js $(HOST_ARGS)


# HTTP load benchmark with wrk (Debian package, installed here when missing) against the
# simulator and two baselines the script starts itself (docs/performance.md).
bench: build ## HTTP load with wrk against two baselines (docs/performance.md)
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/bench.mjs

# What the host server adds in front of 8 simulated modules: latency p50/p99 against direct, and
# throughput through it against the sum of direct, modules paced and unpaced (wrk, installed when
# missing). docs/lab.md.
bench-host-server: build ## latency and throughput the host server adds in front of 8 simulated modules (docs/lab.md)
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/bench-host-server.mjs

# Machine instructions per request of the simulator's request path (valgrind's callgrind, Debian
# package, installed here when missing): a count that does not move with the machine's load.
bench-instr: build ## machine instructions per request (valgrind callgrind)
	@command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
	node tools/bench-instr.mjs

# Memory of the simulator over 1,000,000 requests (RSS from /proc).
soak: build ## memory of the simulator over 1,000,000 requests
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	node tools/soak.mjs

# Cost of the device-side request path inside the real XS engine (computrons, heap, bundle size),
# then of one event-stream tick, of serving the console page and of one GET /metrics scrape
# (tools/bench-events-xs.mjs), then the Moddable SDK's own http Server beside it when $MODDABLE names
# an SDK checkout (tools/bench-xs-anchor.mjs).
bench-xs: build ## cost of the request path under the real XS engine (and the SDK's http Server, with MODDABLE)
	node tools/bench-xs.mjs
	node tools/bench-events-xs.mjs
	node tools/bench-xs-anchor.mjs
	node tools/bench-xs-device.mjs

# A firmware image for the simulator (docs/firmware.md): FW_ARGS="--version 2.12.0 --out /tmp/fw.bin"
# (also --model N, --build 0x..., --size BYTES or --payload FILE, --never-starts).
FW_ARGS ?= --version 2.12.0 --out firmware-sim.bin
firmware-image: build ## a firmware image for the simulator (FW_ARGS="--version 2.12.0 --out FILE"; docs/firmware.md)
	@node tools/firmware-image.mjs $(FW_ARGS)

# Long property-based fuzzing of the HTTP core and the DNS reader and responder (make test runs a
# short pass of the same properties).
FUZZ_RUNS ?= 100000
fuzz: build ## long property-based fuzzing of the HTTP core and the DNS responder (FUZZ_RUNS)
	FUZZ_RUNS=$(FUZZ_RUNS) $(MOCHA) --timeout 0 build/tests/fuzz.test.js build/tests/dns-fuzz.test.js

clean: ## remove build/
	rm -rf build

# ---- Device build (Moddable SDK) -----------------------------------------------------------------
# make device                  build for an ESP32 module (needs $MODDABLE and ESP-IDF v6.0: docs/esp32.md);
#                              where ESP-IDF cannot link the image, Moddable's compile of XS, the SDK
#                              modules and the project's C only, then one line says what the link lacks
# make device PLATFORM=esp32/wired   an ESP32 with Ethernet (MCCONFIG_ARGS="ethernet=wt32-eth01|esp32-poe")
# make device PLATFORM=esp32/qemu    the emulated ESP32 (QEMU's OpenCores MAC, UART console): make esp32-emu-net
# make device PLATFORM=pico/pico_w
#                              build for a Raspberry Pi Pico W (needs the Pico tools: docs/pico.md); the
#                              image is build/bin/pico/pico_w/release/brainstem-rest/xs_pico.uf2 under
#                              DEVICE_BUILD_DIR (or $MODDABLE/build). Never waits for a board (-t build).
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


.PHONY: esp32-emu-net esp32-emu-figures
.PHONY: device device-budget device-budget-3q device-measure mcsim-load moddable-tools esp32-tools esp32-link esp32-anchor pico-tools pico-size pico-anchor pico-emu pico-emu-net pico-emu-figures pico-emu-walk pico-emu-soak pico-emu-hostile check-moddable

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

# The Pico tools, where the Moddable SDK's documentation/devices/pico.md puts them (each overridable):
# pico-sdk, pico-extras and a configured pico-examples (its build/generated/pico_base) under PICO_ROOT,
# the arm-none-eabi toolchain under PICO_GCC_ROOT (found on PATH), pioasm, picotool (UF2CONV; on PATH
# or in the pico-sdk build) and cmake. Moddable's make.pico.mk reads the pico-sdk version with
# `git describe --tags` (so pico-sdk must be a git checkout at tag 2.2.0), needs bash (`[[`) and takes its
# job count from MAKEFLAGS_JOBS.
IS_PICO = $(filter pico/%,$(PLATFORM))
PICO_ROOT ?= $(HOME)/pico
PICO_SDK_DIR ?= $(PICO_ROOT)/pico-sdk
PICO_EXTRAS_DIR ?= $(PICO_ROOT)/pico-extras
PICO_EXAMPLES_DIR ?= $(PICO_ROOT)/pico-examples
PICO_GCC_ROOT ?= $(patsubst %/bin/arm-none-eabi-gcc,%,$(shell command -v arm-none-eabi-gcc))
PIOASM ?= $(PICO_SDK_DIR)/build/pioasm/pioasm
UF2CONV ?= $(or $(shell command -v picotool),$(PICO_SDK_DIR)/build/_deps/picotool/picotool)
PICO_JOBS ?= $(shell nproc)
PICO_ENV = PICO_ROOT="$(PICO_ROOT)" PICO_SDK_DIR="$(PICO_SDK_DIR)" PICO_EXTRAS_DIR="$(PICO_EXTRAS_DIR)" \
	PICO_EXAMPLES_DIR="$(PICO_EXAMPLES_DIR)" PICO_GCC_ROOT="$(PICO_GCC_ROOT)" PIOASM="$(PIOASM)" \
	UF2CONV="$(UF2CONV)" MAKEFLAGS="SHELL=/bin/bash" MAKEFLAGS_JOBS="--jobs $(PICO_JOBS)"

# Says in one line which Pico tool is missing instead of failing inside mcconfig.
pico-tools: ## check that the Pico W build tools are present (docs/pico.md)
	@missing() { echo "make device PLATFORM=$(PLATFORM): $$1 (docs/pico.md)" >&2; exit 1; }; \
	[ -d "$(PICO_SDK_DIR)/src/rp2_common" ] || missing "no pico-sdk 2.2.0 at PICO_SDK_DIR=$(PICO_SDK_DIR)"; \
	tag=$$(cd "$(PICO_SDK_DIR)" && git describe --tags --always --abbrev=0 2>/dev/null); \
	[ "$$tag" = 2.2.0 ] || missing "pico-sdk at PICO_SDK_DIR=$(PICO_SDK_DIR) is not a git checkout at tag 2.2.0 ($${tag:-no git tag}); Moddable's make.pico.mk reads the version with git describe --tags"; \
	[ -d "$(PICO_EXTRAS_DIR)/src/rp2_common" ] || missing "no pico-extras at PICO_EXTRAS_DIR=$(PICO_EXTRAS_DIR)"; \
	[ -d "$(PICO_EXAMPLES_DIR)/build/generated/pico_base" ] || missing "no configured pico-examples (build/generated/pico_base) at PICO_EXAMPLES_DIR=$(PICO_EXAMPLES_DIR)"; \
	[ -d "$(PICO_ROOT)/pico-examples" ] || missing "no pico-examples under PICO_ROOT=$(PICO_ROOT) (Moddable's make.pico.mk looks there)"; \
	[ -x "$(PICO_GCC_ROOT)/bin/arm-none-eabi-gcc" ] || missing "no arm-none-eabi-gcc at PICO_GCC_ROOT=$(PICO_GCC_ROOT) (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi)"; \
	printf '#include <cstring>\n' | "$(PICO_GCC_ROOT)/bin/arm-none-eabi-g++" -E -x c++ - >/dev/null 2>&1 || missing "arm-none-eabi-g++ at PICO_GCC_ROOT=$(PICO_GCC_ROOT) has no C++ library (Debian: libstdc++-arm-none-eabi-newlib; pico-extras' audio.cpp needs <cstring>)"; \
	[ -x "$(PIOASM)" ] || missing "no pioasm at PIOASM=$(PIOASM)"; \
	[ -x "$(UF2CONV)" ] || missing "no picotool on PATH or at UF2CONV=$(UF2CONV) (put the bin/ of picotool's install on PATH)"; \
	command -v cmake >/dev/null || missing "no cmake on PATH"

# The ESP32 tools (docs/esp32.md): ESP-IDF v6.0 at IDF_PATH as a git checkout (Moddable's make.esp32.mk
# reads its version with git describe), xtensa-esp32-elf-gcc on PATH, `python` on PATH (make.esp32.mk
# runs its version check with it) and a Python with ESP-IDF's kconfgen (esp-idf-kconfig) as IDF_PYTHON.
# PLATFORM=esp32/wired (an ESP32 with Ethernet: the board config.ethernet names, wt32-eth01 or esp32-poe)
# and esp32/qemu (the emulated ESP32, QEMU's OpenCores MAC) are this project's subplatforms, folders of
# esp32/ that mcconfig takes as esp32:FOLDER.
IS_ESP32 = $(filter esp32 esp32/wired esp32/qemu,$(PLATFORM))
IS_WIRED = $(filter esp32/wired esp32/qemu,$(PLATFORM))
MC_PLATFORM = $(if $(IS_WIRED),esp32:$(CURDIR)/$(PLATFORM),$(PLATFORM))
IDF_PYTHON ?= python3

# Says in one line which ESP32 tool is missing instead of failing inside mcconfig.
esp32-tools: ## check that the ESP32 build tools are present (docs/esp32.md)
	@missing() { echo "make device PLATFORM=$(PLATFORM): $$1 (docs/esp32.md)" >&2; exit 1; }; \
	[ -n "$(IDF_PATH)" ] || missing "IDF_PATH is not set (an ESP-IDF v6.0 checkout)"; \
	[ -d "$(IDF_PATH)/components/esp_system" ] || missing "no ESP-IDF at IDF_PATH=$(IDF_PATH)"; \
	tag=$$(git -C "$(IDF_PATH)" describe --always --abbrev=0 2>/dev/null); \
	[ "$$tag" = v6.0 ] || missing "ESP-IDF at IDF_PATH=$(IDF_PATH) is not a git checkout at v6.0 ($${tag:-no git tag}); Moddable's make.esp32.mk reads the version with git describe"; \
	command -v xtensa-esp32-elf-gcc >/dev/null || missing "no xtensa-esp32-elf-gcc on PATH"; \
	command -v python >/dev/null || missing "no python on PATH (Moddable's make.esp32.mk runs python; Debian: python-is-python3)"; \
	$(IDF_PYTHON) -c 'import kconfgen' 2>/dev/null || missing "IDF_PYTHON=$(IDF_PYTHON) has no esp-idf-kconfig (ESP-IDF's kconfgen makes sdkconfig.h)"

# What ESP-IDF's link needs beyond esp32-tools: the xtensa C++ compiler and, for a Wi-Fi image, the
# Wi-Fi libraries (the esp32-wifi-lib submodule in components/esp_wifi/lib). With them and an idf.py
# whose Python check passes (. $$IDF_PATH/export.sh), make device runs mcconfig -m (build and flash).
# With them but no such idf.py, tools/esp32/archive.mjs --link compiles Moddable's half (XS, the SDK
# modules, the project's C and the XS image into xs_esp32.a, with ESP-IDF's headers and an sdkconfig.h
# from ESP-IDF's kconfgen) and links the image with ESP-IDF's CMake as idf.py build would
# (tools/esp32/link.mjs): xs_esp32.bin and the 4 MB flash image xs_esp32-flash.bin. Without them, it
# compiles Moddable's half, prints its sizes and stops with one line naming what is missing.
ESP32_LINK_MISSING = $(strip \
	$(if $(IS_WIRED),,$(if $(wildcard $(IDF_PATH)/components/esp_wifi/lib/esp32/libnet80211.a),,the Wi-Fi libraries ($(IDF_PATH)/components/esp_wifi/lib has none: esp32-wifi-lib);)) \
	$(if $(shell command -v xtensa-esp32-elf-g++),,xtensa-esp32-elf-g++ on PATH;))
ESP32_IDF_PY = $(if $(shell idf.py --version >/dev/null 2>&1 && echo ok),ok)
ESP32_OUT = $(or $(DEVICE_BUILD_DIR),$(MODDABLE)/build)

esp32-link: $(NPM_STAMP) moddable-tools esp32-tools ## the ESP32 image where idf.py cannot run, or Moddable's half of it (docs/esp32.md)
	@missing="$(ESP32_LINK_MISSING)"; \
	if [ -n "$$missing" ]; then \
		PATH="$(CURDIR)/node_modules/.bin:$$PATH" IDF_PYTHON="$(IDF_PYTHON)" node tools/esp32/archive.mjs "$(ESP32_OUT)" "$(MC_PLATFORM)" $(MCCONFIG_ARGS) && \
		echo "make device PLATFORM=$(PLATFORM): XS, the SDK modules and the project's C are compiled (xs_esp32.a); ESP-IDF cannot link the image here without $${missing%;} (docs/esp32.md)" >&2; exit 1; \
	elif [ -z "$(ESP32_IDF_PY)" ]; then \
		PATH="$(CURDIR)/node_modules/.bin:$$PATH" IDF_PYTHON="$(IDF_PYTHON)" node tools/esp32/archive.mjs --link "$(ESP32_OUT)" "$(MC_PLATFORM)" $(MCCONFIG_ARGS); \
	fi

device: $(NPM_STAMP) moddable-tools $(if $(IS_PICO),pico-tools) $(if $(IS_ESP32),esp32-link) ## firmware with the Moddable SDK (PLATFORM=esp32, esp32/wired, esp32/qemu, pico/pico_w or lin)
	@if [ -z "$(IS_ESP32)" ] || [ -n "$(ESP32_IDF_PY)" ]; then \
		$(if $(IS_PICO),$(PICO_ENV)) PATH="$(CURDIR)/node_modules/.bin:$$PATH" \
		mcconfig -m -p $(MC_PLATFORM) $(if $(IS_PICO),-t build) $(MCCONFIG_OUT) $(MCCONFIG_ARGS) manifest.json; fi

# What the Pico W image costs (flash, RAM, C heap, the XS image, the uf2), read from the build that
# make device PLATFORM=pico/pico_w left under DEVICE_BUILD_DIR (or $MODDABLE/build) with arm-none-eabi's
# binutils: docs/pico.md shows its output. A build of the JavaScript half alone gives the XS rows.
pico-size: ## sizes of the Pico W image make device built (flash, RAM, XS image, uf2)
	@node tools/pico-size.mjs "$(or $(DEVICE_BUILD_DIR),$(if $(MODDABLE),$(MODDABLE)/build))"

# The Pico W image on an emulated board: rp2040js (npm) runs it instruction by instruction with a model
# of its CYW43439 Wi-Fi chip on the Wi-Fi pins (tools/pico-emu/, written from pico-sdk's cyw43-driver),
# and prints the USB serial console's trace and the emulated/real time ratio (docs/pico.md).
#   make pico-emu       boot for PICO_EMU_SECONDS of real time; the chip joins the emulated access point
#                       (PICO_EMU_ARGS: --ssid, --password as the image was built with; --mac; --trace)
#   make pico-emu-net   the same inside a network namespace of its own (root, unshare -n): a TAP device
#                       with a DHCP server (socat and dnsmasq, installed when missing), and curl asking
#                       the board http://192.168.77.50/ every 10 s
#   make pico-emu-figures the same network; the runner itself asks the board (boot, idle, 4 clients at once,
#                       one GET, PUT and document alone with its cycles by function, GETs one after another)
#                       and reads its memory from its RAM (tools/pico-emu/board-*.mjs); then boots the anchor
#                       (PICO_ANCHOR_IMAGE, make pico-anchor) the same way and prints the two side by side:
#                       the tables of docs/pico.md §"What the emulated board costs", then stops
#   make pico-emu-walk  the long test: a GET of every route of the board's description, PUT round trips
#                       on its settings, DNS-SD after 150 s (tests/pico-emu-walk.long.ts; not in make test)
#   make pico-emu-soak  a lab's day repeated PICO_EMU_SOAK_DAYS times in emulated time, the board running
#                       ahead of real time while nothing waits on it (tools/pico-emu/soak.mjs); the hourly
#                       records judged and plotted (tools/pico-emu/soak-report.mjs) into PICO_EMU_SOAK_OUT.
#                       PICO_EMU_SOAK_TIMER_MS: the chip's millisecond clock at power-on (a leg that starts
#                       days before the 49.7-day wrap: 4294967296 less the milliseconds before it).
#                       PICO_EMU_SOAK_TRAFFIC: only these parts of the day, by comma (scrape, read, put, save,
#                       console, dns-sd, away, hostile, sntp-step); the whole day when empty
# PICO_IMAGE: the xs_pico.uf2 of make device PLATFORM=pico/pico_w. PICO_BOOTROM: the RP2040 B1 boot ROM
# (rp2040js's demo/bootrom.ts from its repository, or a raw b1.bin).
PICO_IMAGE ?= $(or $(DEVICE_BUILD_DIR),$(if $(MODDABLE),$(MODDABLE)/build))/bin/pico/pico_w/release/brainstem-rest/xs_pico.uf2
PICO_BOOTROM ?= $(PICO_ROOT)/rp2040js/demo/bootrom.ts
PICO_EMU_SECONDS ?= 120
PICO_EMU_FIGURES_SECONDS ?= 1800
PICO_EMU_ARGS ?= --ssid lab --password secret
PICO_EMU_RUN = --image "$(PICO_IMAGE)" --bootrom "$(PICO_BOOTROM)" $(PICO_EMU_ARGS)

# The anchor of make pico-emu-figures (tools/pico-anchor/): the Moddable SDK's own http Server and a
# raw lwIP server in C, answering bodies of the module's sizes, built for the same board into
# DEVICE_BUILD_DIR (bin/pico/pico_w/release/pico-anchor/xs_pico.uf2), for the access point PICO_ANCHOR_ARGS.
PICO_ANCHOR_ARGS ?= ssid=lab password=secret
PICO_ANCHOR_IMAGE ?= $(or $(DEVICE_BUILD_DIR),$(if $(MODDABLE),$(MODDABLE)/build))/bin/pico/pico_w/release/pico-anchor/xs_pico.uf2
pico-anchor: moddable-tools ## the SDK's own http Server and a raw lwIP server in C for the Pico W (the anchor of pico-emu-figures)
	@$(MAKE) --no-print-directory pico-tools PLATFORM=pico/pico_w
	$(PICO_ENV) mcconfig -m -p pico/pico_w -t build $(MCCONFIG_OUT) $(PICO_ANCHOR_ARGS) tools/pico-anchor/manifest.json

pico-emu: build ## boot the Pico W image on rp2040js with the emulated Wi-Fi chip; print its console
	nice -n 19 node tools/pico-emu/run.mjs --seconds $(PICO_EMU_SECONDS) $(PICO_EMU_RUN)

pico-emu-net: build ## the emulated Pico W on a TAP link in a network namespace, with DHCP, asked by curl
	@command -v socat >/dev/null && command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq socat dnsmasq-base; }
	nice -n 19 unshare -n tools/pico-emu/netns.sh $(PICO_EMU_SECONDS) $(PICO_EMU_RUN)

pico-emu-figures: build ## the module beside the SDK's http Server and raw lwIP on the emulated board: cycles, times, heaps, profile
	@command -v socat >/dev/null && command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq socat dnsmasq-base; }
	@summary=$$(mktemp /tmp/pico-emu-figures.XXXXXX); trap 'rm -f '$$summary EXIT; \
	PICO_EMU_FIGURES_JSON=$$summary PICO_EMU_CURL=0 nice -n 19 unshare -n tools/pico-emu/netns.sh $(PICO_EMU_FIGURES_SECONDS) $(PICO_EMU_RUN) --figures || exit 1; \
	if [ -f "$(PICO_ANCHOR_IMAGE)" ]; then \
		PICO_EMU_FIGURES_JSON=$$summary PICO_EMU_CURL=0 nice -n 19 unshare -n tools/pico-emu/netns.sh $(PICO_EMU_FIGURES_SECONDS) --image "$(PICO_ANCHOR_IMAGE)" --bootrom "$(PICO_BOOTROM)" $(PICO_EMU_ARGS) --figures --anchor; \
	else echo "pico-emu-figures: no anchor image at PICO_ANCHOR_IMAGE=$(PICO_ANCHOR_IMAGE) (make pico-anchor): the module alone"; fi
# Hundreds of each hostile client (tests/pico-emu/hostile-client.ts) with the emulator's race watch; make test
# runs the short form of the same test.
PICO_EMU_HOSTILE_LONG ?= aborts=200,streams=100,scanners=400,bursts=5,stalls=3,races=10
pico-emu-hostile: build mdns-tools ## the emulated Pico W: hundreds of aborting clients and scanners, 16 at once, a stalled client, with the race watch
	@command -v socat >/dev/null && command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq socat dnsmasq-base; }
	PICO_IMAGE="$(PICO_IMAGE)" PICO_BOOTROM="$(PICO_BOOTROM)" PICO_EMU_HOSTILE="$(PICO_EMU_HOSTILE_LONG)" PICO_EMU_HOSTILE_SECONDS=10800 \
	  $(MOCHA) --exit --timeout 11000000 build/tests/pico-emu-hostile.test.js
PICO_EMU_SOAK_DAYS ?= 60
PICO_EMU_SOAK_TIMER_MS ?=
PICO_EMU_SOAK_TRAFFIC ?=
PICO_EMU_SOAK_OUT ?= build/pico-emu-soak
pico-emu-soak: build mdns-tools ## the emulated Pico W: a lab's day repeated for PICO_EMU_SOAK_DAYS emulated days, judged and plotted
	@command -v socat >/dev/null && command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq socat dnsmasq-base; }
	@mkdir -p "$(PICO_EMU_SOAK_OUT)"
	PICO_EMU_DNS=1 PICO_EMU_CURL=0 nice -n 19 unshare -n tools/pico-emu/netns.sh $$(( $(PICO_EMU_SOAK_DAYS) * 1800 + 600 )) $(PICO_EMU_RUN) \
	  --soak $(PICO_EMU_SOAK_DAYS) --soak-records "$(PICO_EMU_SOAK_OUT)/records.jsonl" \
	  $(if $(PICO_EMU_SOAK_TIMER_MS),--timer-ms $(PICO_EMU_SOAK_TIMER_MS)) $(if $(PICO_EMU_SOAK_TRAFFIC),--soak-traffic $(PICO_EMU_SOAK_TRAFFIC)) \
	  > "$(PICO_EMU_SOAK_OUT)/board.log" 2>&1; \
	  status=$$?; grep -a 'soak:\|pico-emu:' "$(PICO_EMU_SOAK_OUT)/board.log" | grep -v 'soak: {' | tail -20; [ $$status = 0 ] || exit $$status
	node tools/pico-emu/soak-report.mjs "$(PICO_EMU_SOAK_OUT)/records.jsonl" --svg "$(PICO_EMU_SOAK_OUT)/soak.svg"
pico-emu-walk: build mdns-tools ## the emulated Pico W: GET every route, PUT round trips, DNS-SD after 150 s
	@command -v socat >/dev/null && command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq socat dnsmasq-base; }
	PICO_IMAGE="$(PICO_IMAGE)" PICO_BOOTROM="$(PICO_BOOTROM)" $(MOCHA) --exit --timeout 3700000 build/tests/pico-emu-walk.long.js

# The wired ESP32 image on QEMU's esp32 machine (docs/esp32.md "On an emulated ESP32"): the flash image
# of make device PLATFORM=esp32/qemu booted in a network namespace of its own (root, unshare -n) with
# its OpenCores MAC on a TAP device, dnsmasq's DHCP and an eFuse MAC of its own
# (tools/esp32-emu/netns.sh); curl asks it every 10 s, or ESP32_EMU_CLIENT runs a client command in the
# namespace (the board is 192.168.77.50, as the emulated Pico W is, so the same clients ask it).
# ESP32_QEMU: qemu-system-xtensa with the esp32 machine (docs/esp32.md: QEMU by hand).
ESP32_FLASH_IMAGE ?= $(or $(DEVICE_BUILD_DIR),$(if $(MODDABLE),$(MODDABLE)/build))/bin/esp32/qemu/release/brainstem-rest/xs_esp32-flash.bin
ESP32_QEMU ?= qemu-system-xtensa
ESP32_EMU_SECONDS ?= 120
esp32-emu-net: build ## the emulated ESP32 on a TAP link in a network namespace, with DHCP, asked by curl (or ESP32_EMU_CLIENT)
	@command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq dnsmasq-base; }
	ESP32_QEMU="$(ESP32_QEMU)" nice -n 19 unshare -n tools/esp32-emu/netns.sh $(ESP32_EMU_SECONDS) "$(ESP32_FLASH_IMAGE)"

# The instruction counter (a QEMU TCG plugin), compiled against the qemu-plugin.h of ESP32_QEMU's own
# install (its ../include) and Debian's glib; without it, make esp32-emu-figures prints no instructions.
ESP32_QEMU_INCLUDE ?= $(abspath $(dir $(shell command -v $(ESP32_QEMU)))../include)
ESP32_INSN_PLUGIN = build/esp32-emu/insn-count.so
$(ESP32_INSN_PLUGIN): tools/esp32-emu/insn-count.c
	@mkdir -p $(@D)
	gcc -O2 -shared -fPIC -Wall -I"$(ESP32_QEMU_INCLUDE)" $$(pkg-config --cflags glib-2.0) $< -o $@ $$(pkg-config --libs glib-2.0)

# The anchor of make esp32-emu-figures (tools/esp32-anchor/): the Moddable SDK's own http Server on the
# emulated ESP32's wired link, linked with the module's ESP-IDF options (esp32/qemu) into
# ESP32_ANCHOR_IMAGE under DEVICE_BUILD_DIR (bin/esp32/qemu/release/esp32-anchor/xs_esp32-flash.bin).
ESP32_ANCHOR_IMAGE ?= $(ESP32_OUT)/bin/esp32/qemu/release/esp32-anchor/xs_esp32-flash.bin
esp32-anchor: $(NPM_STAMP) moddable-tools ## the SDK's own http Server on the emulated ESP32's wired link (the anchor of esp32-emu-figures)
	@$(MAKE) --no-print-directory esp32-tools PLATFORM=esp32/qemu
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" IDF_PYTHON="$(IDF_PYTHON)" node tools/esp32/archive.mjs --link --manifest tools/esp32-anchor/manifest.json "$(ESP32_OUT)" "esp32:$(CURDIR)/esp32/qemu"

# Each figure for the module's image, then for the anchor's where make esp32-anchor built it.
ESP32_FIGURES = ESP32_QEMU="$(ESP32_QEMU)" nice -n 19 unshare -n tools/esp32-emu/netns.sh 900
esp32-emu-figures: build ## the emulated ESP32 beside the SDK's http Server: boot to first answer, GET times, four clients at once, its C and XS heaps, instructions per GET (tools/esp32-emu/figures.ts)
	@command -v dnsmasq >/dev/null || { apt-get update -qq && apt-get install -y -qq dnsmasq-base; }
	@[ -f "$(ESP32_ANCHOR_IMAGE)" ] || echo "figures: no anchor image at ESP32_ANCHOR_IMAGE=$(ESP32_ANCHOR_IMAGE) (make esp32-anchor): the module alone"
	ESP32_FLASH_IMAGE="$(ESP32_FLASH_IMAGE)" ESP32_EMU_CLIENT="node $(CURDIR)/build/tools/esp32-emu/figures.js" $(ESP32_FIGURES) "$(ESP32_FLASH_IMAGE)" | grep '^figures:'
	@if [ -f "$(ESP32_ANCHOR_IMAGE)" ]; then ESP32_EMU_CLIENT="ESP32_ANCHOR=1 node $(CURDIR)/build/tools/esp32-emu/figures.js" $(ESP32_FIGURES) "$(ESP32_ANCHOR_IMAGE)" | grep '^figures:'; fi
	@if [ -f "$(ESP32_QEMU_INCLUDE)/qemu-plugin.h" ] && $(MAKE) --no-print-directory $(ESP32_INSN_PLUGIN) >/dev/null; then \
		ESP32_EMU_INSN_PLUGIN="$(CURDIR)/$(ESP32_INSN_PLUGIN)" ESP32_EMU_CLIENT="node $(CURDIR)/build/tools/esp32-emu/figures.js" $(ESP32_FIGURES) "$(ESP32_FLASH_IMAGE)" | grep '^figures:'; \
		if [ -f "$(ESP32_ANCHOR_IMAGE)" ]; then ESP32_EMU_INSN_PLUGIN="$(CURDIR)/$(ESP32_INSN_PLUGIN)" ESP32_EMU_CLIENT="ESP32_ANCHOR=1 node $(CURDIR)/build/tools/esp32-emu/figures.js" $(ESP32_FIGURES) "$(ESP32_ANCHOR_IMAGE)" | grep '^figures:'; fi; \
	else echo "figures: no instructions (no qemu-plugin.h at ESP32_QEMU_INCLUDE=$(ESP32_QEMU_INCLUDE): a QEMU built with TCG plugins)"; fi

# A change of `creation` alone does not make mcconfig rebuild: the generated mc.xs.c goes first.
device-budget: $(NPM_STAMP) moddable-tools ## desktop-host build inside the module's fixed XS heap
	rm -f "$(or $(DEVICE_BUILD_DIR),$$MODDABLE/build)"/tmp/lin/mc/*/brainstem-rest-budget/mc.xs.c
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" mcconfig -m -p lin $(MCCONFIG_OUT) $(MCCONFIG_ARGS) budget/manifest.json

# The same at 3/4 of the module's heap (1,536 slots, 24 KB of chunks, fixed: budget/three-quarters/):
# the room the module keeps for what comes next. Run it with
# mcsim $(DEVICE_BUILD_DIR)/bin/lin/mc/release/brainstem-rest-budget-3q/mc.so, or make mcsim-load.
device-budget-3q: $(NPM_STAMP) moddable-tools ## desktop-host build inside 3/4 of the module's fixed heap (1,536 slots, 24 KB)
	rm -f "$(or $(DEVICE_BUILD_DIR),$$MODDABLE/build)"/tmp/lin/mc/*/brainstem-rest-budget-3q/mc.xs.c
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" mcconfig -m -p lin $(MCCONFIG_OUT) $(MCCONFIG_ARGS) budget/three-quarters/manifest.json

# A debug desktop-host build that collects garbage every 10 ms and prints its heap once a second
# (budget/measure/): tools/mcsim-run.mjs reads the live slots and chunk bytes from it. The app is
# $(DEVICE_BUILD_DIR)/bin/lin/mc/debug/brainstem-rest-measure/mc.so.
device-measure: $(NPM_STAMP) moddable-tools ## debug desktop-host build that prints its live heap (for make mcsim-load)
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" mcconfig -d -m -p lin -t build $(MCCONFIG_OUT) $(MCCONFIG_ARGS) budget/measure/manifest.json

# A device build under mcsim, in a network namespace of its own with a virtual display (Xvfb, installed
# when missing), under a load: by default the mixed load of a lab for 120 s (tools/mcsim-churn-load.mjs
# --mixed). Prints the load's statuses, and the heap at idle and at its peak for a device-measure build;
# fails when the module aborts or stops answering. Needs root (unshare -n).
#   make mcsim-load MCSIM_APP=/tmp/b/bin/lin/mc/release/brainstem-rest-budget-3q/mc.so
#   make mcsim-load MCSIM_APP=/tmp/b/bin/lin/mc/debug/brainstem-rest-measure/mc.so LOAD_ARGS="--hold 4"
MCSIM_APP ?=
LOAD_ARGS ?= --mixed
mcsim-load: build ## run MCSIM_APP (a device build's mc.so) under mcsim with a load (LOAD_ARGS, default --mixed)
	@[ -n "$(MCSIM_APP)" ] || { echo "make mcsim-load: MCSIM_APP=path/to/mc.so (make device-budget, device-budget-3q or device-measure)" >&2; exit 1; }
	@command -v Xvfb >/dev/null || { apt-get update -qq && apt-get install -y -qq xvfb; }
	node tools/mcsim-run.mjs --app "$(MCSIM_APP)" -- node tools/mcsim-churn-load.mjs $(LOAD_ARGS)

# Device code (src/**, hal/types, hal/device/**) type-checked against the Moddable SDK typings.
check-moddable: $(NPM_STAMP) ## type-check device code against the Moddable typings
	$(TSC) -p tsconfig.moddable.json
