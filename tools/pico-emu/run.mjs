// Boots a Pico W image (the xs_pico.uf2 that `make device PLATFORM=pico/pico_w` builds) on rp2040js
// with the CYW43439 model (build/tools/pico-emu, from `make build`) on its Wi-Fi pins, and prints
// the USB serial console's trace with the emulated time, then the emulated/real time ratio.
//
//   node tools/pico-emu/run.mjs --image xs_pico.uf2 --bootrom bootrom.ts [--seconds 60]
//        [--mac 28:cd:c1:00:00:01] [--ssid lab] [--password secret] [--trace: every ioctl and event]
//        [--link LOCALPORT:PEERPORT]   Ethernet frames as UDP datagrams on 127.0.0.1 (udp-link.mjs); a TCP
//                                      port written into $PICO_EMU_CUT_FILE is dropped both ways from then on
//        [--ap-away FROM:TO]           the access point is gone between these emulated seconds
//        [--memory-every S]            the board's C, XS and lwIP heaps every S emulated seconds (SIGUSR2: now)
//        [--figures]                   measure boot, memory and cycles per GET over --link, print them, stop
//        [--anchor]                    with --figures: the image is tools/pico-anchor's (make pico-anchor)
//        [--hang-at S]                 the main loop stops at S emulated seconds (the watchdog restarts it)
//        [--fault-at S]                the core takes a hard fault at S emulated seconds
//        [--uf2-at S:FILE]             at S emulated seconds, a UF2 download of FILE as the boot ROM makes
//                                      it: the image written to flash, then the chip restarted through the
//                                      watchdog with scratch 4 cleared (pico-bootrom-rp2040 virtual_disk.c
//                                      _write_uf2_page_complete: safe_reboot(0, SRAM_END, 1000); runtime.c
//                                      watchdog_reboot). The saved settings in flash stay.
//        [--no-debugger]               a panic's BKPT locks the core up, and the watchdog restarts it
//        [--soak DAYS]                 a lab's day repeated DAYS times in emulated time, the board running ahead
//                                      of real time while idle (soak.mjs; inside netns.sh with PICO_EMU_DNS=1)
//        [--soak-records FILE]         with --soak: the hourly records as JSON lines (soak-report.mjs)
//        [--soak-traffic A,B,…]        with --soak: only these parts of the day (soak.mjs TRAFFIC: scrape, read,
//                                      put, save, console, dns-sd, away, hostile, sntp-step); all when not given
//        [--timer-ms MS]               the RP2040's 64-bit microsecond timer reads MS ms at reset (a board up
//                                      for days: 4294907296 is a minute before the 32-bit millisecond wrap)
// PICO_EMU_RACE_WATCH=1: the allocator entered by an interrupt inside the heap's work, and lwIP called
// outside its lock, printed as they happen and counted at the end (race-watch.mjs).
// SIGUSR1 takes the access point away, or brings it back (a client in netns.sh's namespace); SIGTERM
// ends the run with its summary line.
//
// rp2040js is found by require() (so NODE_PATH works); the RP2040 B1 boot ROM is read from a file:
// rp2040js's demo/bootrom.ts (hex words) or a raw 16 KiB image.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { runLockstep } from './lockstep.mjs';
import { udpLink } from './udp-link.mjs';
import { backtrace } from './backtrace.mjs';
import { handleFlashTrap, trapFlashWrites } from './flash-rom.mjs';
import { newChip, startTimerAt, watchdogOf, watchdogReset } from './chip-reset.mjs';
import { hangCore } from './hang.mjs';
import { usbSerialHost } from './usb-serial-host.mjs';

const require = createRequire(import.meta.url);
const { values: opt } = parseArgs({
  options: {
    image: { type: 'string' }, bootrom: { type: 'string' }, seconds: { type: 'string', default: '60' },
    mac: { type: 'string', default: '28:cd:c1:00:00:01' }, ssid: { type: 'string', default: 'lab' },
    password: { type: 'string' }, trace: { type: 'boolean', default: false }, link: { type: 'string' },
    'ap-away': { type: 'string' }, 'memory-every': { type: 'string' }, figures: { type: 'boolean', default: false },
    anchor: { type: 'boolean', default: false },
    'hang-at': { type: 'string' }, 'no-debugger': { type: 'boolean', default: false },
    'timer-ms': { type: 'string' }, 'fault-at': { type: 'string' }, 'uf2-at': { type: 'string' },
    soak: { type: 'string' }, 'soak-records': { type: 'string' }, 'soak-traffic': { type: 'string' },
  },
});

function fail(why) {
  console.error(`pico-emu: ${why}`);
  process.exit(2);
}

if (!opt.image || !fs.existsSync(opt.image)) fail(`no image at ${opt.image ?? '(none: --image)'}; build it with make device PLATFORM=pico/pico_w`);
if (!opt.bootrom || !fs.existsSync(opt.bootrom)) fail(`no RP2040 boot ROM at ${opt.bootrom ?? '(none: --bootrom)'} (docs/pico.md)`);
let rp2040js;
try {
  rp2040js = require('rp2040js');
} catch {
  fail('rp2040js is not installed (npm install rp2040js@1.4.1, or NODE_PATH to one)');
}
const { Cyw43 } = require('../../build/tools/pico-emu/cyw43.js');
const { attachCyw43 } = require('../../build/tools/pico-emu/rp2040-pins.js');

function loadBootrom(file) {
  const raw = fs.readFileSync(file);
  if (file.endsWith('.bin')) return new Uint32Array(raw.buffer, raw.byteOffset, raw.length >> 2);
  const words = raw.toString('utf8').match(/0x[0-9a-f]{8}/gi) ?? [];
  return Uint32Array.from(words, (w) => parseInt(w, 16));
}

function loadUf2(mcu, file) {
  const uf2 = fs.readFileSync(file);
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const flags = uf2.readUInt32LE(off + 8), addr = uf2.readUInt32LE(off + 12), size = uf2.readUInt32LE(off + 16);
    // RP2040 blocks only: picotool adds an RP2350-E10 block for 0x10ffff00
    if (!(flags & 0x2000) || uf2.readUInt32LE(off + 28) !== 0xe48bff56) continue;
    mcu.flash.set(uf2.subarray(off + 32, off + 32 + size), addr - 0x10000000);
  }
}

const sim = new rp2040js.Simulator();
const bootrom = trapFlashWrites(loadBootrom(opt.bootrom));
let mcu = newChip(rp2040js, sim.clock, bootrom); // a new one after each watchdog reset (start below)
loadUf2(mcu, opt.image);
if (opt['timer-ms']) {
  const ms = Number(opt['timer-ms']);
  if (!(ms >= 0 && Number.isInteger(ms))) fail(`--timer-ms wants whole milliseconds, not ${opt['timer-ms']}`);
  startTimerAt(mcu, ms); // this chip only: a watchdog reset starts the timer from 0 again
  const wrapMs = 2 ** 32 - ms;
  if (wrapMs > 0) {
    sim.clock.createAlarm(() => console.log(`${stamp()} pico-emu: the timer passes 2^32 ms (the 32-bit millisecond wrap)`))
      .schedule(wrapMs * 1e6);
  }
}

const t0 = Date.now();
const stamp = () => `[${(sim.clock.micros / 1e6).toFixed(3)} s]`;
const chip = new Cyw43({
  mac: opt.mac,
  ap: { ssid: opt.ssid, password: opt.password },
  later: (ms, fn) => sim.clock.createAlarm(fn).schedule(ms * 1e6),
  // every bus-level step with --trace; otherwise the milestones: firmware started, joins, leaves
  trace: (line) => { if (opt.trace || !/^(ioctl|event) /.test(line)) console.log(`${stamp()} cyw43: ${line}`); },
});
let apPresent = true;
const accessPoint = (present) => {
  console.log(`${stamp()} pico-emu: the access point ${present ? 'is back' : 'goes away'}`);
  apPresent = present;
  chip.setAccessPointPresent(present);
};
process.on('SIGUSR1', () => accessPoint(!apPresent));
if (opt['ap-away']) {
  const [from, to] = opt['ap-away'].split(':').map(Number);
  if (!(from >= 0 && to > from)) fail(`--ap-away wants FROM:TO in emulated seconds, not ${opt['ap-away']}`);
  const at = (s, present) => sim.clock.createAlarm(() => accessPoint(present)).schedule(s * 1e9);
  at(from, false);
  at(to, true);
}
let frames;
if (opt.link) {
  const [local, peer] = opt.link.split(':').map(Number);
  if (!(local > 0 && peer > 0)) fail(`--link wants LOCALPORT:PEERPORT, not ${opt.link}`);
  frames = udpLink(chip, local, peer);
  // PICO_EMU_CUT_FILE (netns.sh): a client writes its TCP port there to vanish from the network, read
  // every 5 ms so that it vanishes in the middle of an answer it saw begin, not after it
  const cutFile = process.env.PICO_EMU_CUT_FILE;
  if (cutFile) {
    setInterval(() => {
      let port;
      try { port = Number(fs.readFileSync(cutFile, 'utf8')); } catch { return; }
      if (!(port > 0) || frames.cut.has(port)) return;
      frames.cut.add(port);
      console.log(`${stamp()} pico-emu: the link drops TCP port ${port} both ways (a client gone)`);
      sim.clock.createAlarm(() => console.log(`${stamp()} pico-emu: 40 s since the link dropped TCP port ${port}`)).schedule(40e9);
    }, 5);
  }
}

let line = '';
let cdc; // the USB host of the running chip's serial port (start)
const lineWatchers = []; // each console line, to whoever asked (soak.mjs)
const onSerialData = (bytes) => {
  for (const b of bytes) {
    if (b === 10) {
      console.log(`${stamp()} ${line}`);
      for (const watch of lineWatchers) watch(line);
      if (races && line.startsWith('REST API on port')) races.serving();
      line = '';
    } else if (b !== 13) line += String.fromCharCode(b);
  }
};

const races = process.env.PICO_EMU_RACE_WATCH === '1'
  ? (await import('./race-watch.mjs')).watchRaces(opt.image.replace(/\.uf2$/, '.elf'), stamp) : null;

const ratio = () => (sim.clock.micros / 1e3 / (Date.now() - t0)).toFixed(3);
let stopping = false;
let onStop = null; // the soak's summary (soak.mjs), whatever ends the run
function stop(why) {
  if (stopping) return;
  stopping = true;
  onStop?.(why);
  const link = frames ? `, ${frames.out} frames out, ${frames.in} in (${frames.dropped} not for it)` : '';
  if (races) console.log(`${stamp()} ${races.summary()}`);
  console.log(`${stamp()} pico-emu: ${why} after ${((Date.now() - t0) / 1000).toFixed(0)} s real, ${chip.wire.transfers} gSPI transfers${link}; emulated/real ${ratio()}`);
  // --figures succeeds only with its figures printed (a fault or a time-out before them fails make pico-emu-figures)
  const status = (opt.figures && why !== 'figures printed') || (opt.soak && why !== 'soak done') ? 1 : 0;
  setTimeout(() => process.exit(status), 100); // the console's last bytes
}
// A BKPT (the SDK's panic ends in one): rp2040js stops the core there, as a debugger would. On a board
// without a debugger (--no-debugger) it is a hard fault whose handler is a BKPT too: the core locks up
// until the watchdog resets the chip.
const onBreak = (code) => {
  if (handleFlashTrap(mcu, code)) return;
  console.log(`${stamp()} pico-emu: backtrace (PC, LR, return addresses on the stack):`);
  for (const l of backtrace(mcu, opt.image.replace(/\.uf2$/, '.elf'))) console.log(l);
  if (opt['no-debugger']) {
    console.log(`${stamp()} pico-emu: the core locks up at BKPT ${code} (pc 0x${mcu.core.PC.toString(16)}), with no debugger`);
    hangCore(mcu);
    return;
  }
  sim.stopped = true;
  stop(`the core stopped at BKPT ${code} (pc 0x${mcu.core.PC.toString(16)})`);
};

// The chip from reset: the Wi-Fi chip on its pins, a USB host on its serial port, the core at boot2
// (the boot ROM's flash boot skipped). A watchdog reset makes a new chip and starts it the same way.
function start() {
  sim.rp2040 = mcu;
  races?.attach(mcu);
  const detach = attachCyw43(mcu, chip);
  cdc = usbSerialHost(rp2040js, mcu.usbCtrl);
  cdc.onSerialData = onSerialData;
  mcu.onBreak = onBreak;
  watchdogOf(mcu).onWatchdogTrigger = () => {
    if (line) console.log(`${stamp()} ${line}`);
    line = '';
    // REASON: TIMER (bit 0) a timeout, FORCE (bit 1) the firmware's watchdog_reboot (System.restart, an XS abort)
    const forced = watchdogOf(mcu).reason & 2;
    console.log(`${stamp()} pico-emu: the watchdog resets the chip (${forced ? 'the firmware triggered it' : 'a timeout'}); where the core was:`);
    for (const l of backtrace(mcu, opt.image.replace(/\.uf2$/, '.elf'), 64)) console.log(l);
    detach();
    chip.power(false); // WL_REG_ON is low from reset
    mcu = watchdogReset(rp2040js, mcu, bootrom);
    start();
  };
  mcu.core.PC = 0x10000000;
}
start();
if (opt['hang-at']) {
  const at = Number(opt['hang-at']);
  if (!(at >= 0)) fail(`--hang-at wants emulated seconds, not ${opt['hang-at']}`);
  sim.clock.createAlarm(() => {
    console.log(`${stamp()} pico-emu: the main loop hangs (a branch to itself, interrupts masked)`);
    hangCore(mcu);
  }).schedule(at * 1e9);
}
if (opt['fault-at']) {
  const at = Number(opt['fault-at']);
  if (!(at >= 0)) fail(`--fault-at wants emulated seconds, not ${opt['fault-at']}`);
  sim.clock.createAlarm(() => {
    console.log(`${stamp()} pico-emu: the core takes a hard fault`);
    mcu.core.exceptionEntry(3); // HardFault, as an access the chip refuses would raise
  }).schedule(at * 1e9);
}
if (opt['uf2-at']) {
  const at = Number(opt['uf2-at'].split(':')[0]);
  const file = opt['uf2-at'].slice(opt['uf2-at'].indexOf(':') + 1);
  if (!(at >= 0) || !fs.existsSync(file)) fail(`--uf2-at wants S:FILE (emulated seconds, a UF2), not ${opt['uf2-at']}`);
  sim.clock.createAlarm(() => {
    console.log(`${stamp()} pico-emu: a UF2 download of ${path.basename(file)}: the boot ROM writes it and restarts the chip through the watchdog`);
    loadUf2(mcu, file);
    const dog = watchdogOf(mcu);
    dog.scratchData[4] = 0; // watchdog_reboot(0, …): a standard boot, no magic
    dog.reason = 1; // TIMER: the boot ROM's watchdog counts its 1,000 ms down
    dog.onWatchdogTrigger();
  }).schedule(at * 1e9);
}
// What rp2040js cannot execute (an unaligned word access, which is a hard fault on the chip) throws out
// of the core: said with where the core was, and the run ends.
process.on('uncaughtException', (e) => {
  console.log(`${stamp()} pico-emu: ${e.message}; backtrace (PC, LR, return addresses on the stack):`);
  for (const l of backtrace(mcu, opt.image.replace(/\.uf2$/, '.elf'))) console.log(l);
  sim.stopped = true;
  stop('the core faulted');
});
setTimeout(() => stop('stopped'), Number(opt.seconds) * 1000);
if (opt.figures || opt['memory-every']) {
  const { watchBoard } = await import('./board-figures.mjs'); // tools/pico-emu/board-memory.mjs reads the RAM
  watchBoard({ sim, mcu, chip, cdc, image: opt.image, memoryEvery: opt['memory-every'], figures: opt.figures, anchor: opt.anchor, stop });
}
let runAhead;
if (opt.soak) {
  const days = Number(opt.soak);
  if (!(days > 0) || !frames) fail(`--soak wants a number of days and --link (netns.sh), not ${opt.soak}`);
  const { soak, TRAFFIC } = await import('./soak.mjs');
  const traffic = opt['soak-traffic'] ? opt['soak-traffic'].split(',').map((p) => p.trim()).filter(Boolean) : TRAFFIC;
  const unknown = traffic.filter((p) => !TRAFFIC.includes(p));
  if (unknown.length || !traffic.length) fail(`--soak-traffic takes some of ${TRAFFIC.join(',')}, not ${opt['soak-traffic']}`);
  let summarize;
  ({ runAhead, summarize } = soak({ sim, chip, image: opt.image, days, recordsFile: opt['soak-records'], accessPoint, timerMs: Number(opt['timer-ms'] ?? 0), traffic,
    onLine: (fn) => lineWatchers.push(fn), stop, stamp }));
  onStop = summarize;
}
process.on('SIGTERM', () => stop('stopped by SIGTERM'));
runLockstep(sim, { runAhead });
