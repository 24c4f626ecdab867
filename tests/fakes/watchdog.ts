// Fake of the `watchdog` module (native/watchdog/watchdog.js) as the chips behave, on the fake network's
// virtual clock. `chip` is the hardware: it keeps running while the JavaScript loop is hung.
// - ESP32 (native/watchdog/esp32/wdt-esp32.c): the sdkconfig's task watchdog, 10 s whatever start()
//   asks; the cause is esp_reset_reason() mapped to a word.
// - Pico (native/watchdog/pico/wdt-pico.c): watchdog_enable() counts at most 8,388 ms on the RP2040
//   (pico-sdk 2.2.0 src/rp2_common/hardware_watchdog/watchdog.c:31-33,68-70, WATCHDOG_LOAD_BITS
//   0xffffff). It writes the scratch register watchdog_enable_caused_reboot() reads (:84, :125-127),
//   so wdt-pico.c reads the cause once, before its first start, and answers that all along.
//   A panic or hard fault ends in wdt-pico.c's handlers: a crash note, then the watchdog's reset at
//   once (panic()); its image() hashes the program in flash (`image`, which a UF2 download changes;
//   the boot ROM then restarts the chip as watchdog_reboot does: 'software').
// - ESP32: a panic restarts through ESP-IDF's panic handler (ESP_RST_PANIC: 'crash'); the EN button is
//   the chip's power-up pin and reads as ESP_RST_POWERON ('power', wdt-esp32.c); image() is undefined.
// A test advances net.now without running timers to hang the loop (hang()), asks bitten(), and boots
// again with the cause the chip will report (restartedBy()).

import { net } from './net';

export type ChipCause = 'watchdog' | 'power' | 'pin' | 'software' | 'crash';

const RP2040_MAX_MS = Math.floor(0xffffff / 2000);

export const chip = {
  kind: 'esp32' as 'esp32' | 'pico',
  /** Why the chip started this time, as the hardware reports it. */
  cause: 'power' as ChipCause,
  /** The counter runs (start() was called), its timeout, and net.now at the last feed. */
  running: false,
  timeoutMs: 0,
  fedAt: 0,
  feeds: 0,
  /** The Pico's image() (a hash of its program in flash), or undefined (ESP32). */
  image: undefined as string | undefined,
  reset(): void {
    this.kind = 'esp32';
    this.cause = 'power';
    this.image = undefined;
    this.restartedBy('power');
  },
  /** A panic or hard fault: what the next boot reads (both chips restart at once). */
  panic(): void {
    this.restartedBy('crash');
  },
  /** A new image written by the Pico's boot ROM (UF2), which restarts the chip as watchdog_reboot does. */
  uf2(image: string): void {
    this.image = image;
    this.restartedBy('software');
  },
  /** The chip restarts: the counter stops and `cause` is what the next boot reads. */
  restartedBy(cause: ChipCause): void {
    this.cause = cause;
    this.running = false;
    this.timeoutMs = 0;
    this.feeds = 0;
  },
  /** Has the watchdog fired by now (no feed for its timeout)? */
  bitten(): boolean {
    return this.running && net.now - this.fedAt >= this.timeoutMs;
  },
  /** The JavaScript loop is stuck for `ms`: time passes, no timer runs. */
  hang(ms: number): void {
    net.now += ms;
  },
};

export default class Watchdog {
  static cause(): ChipCause {
    return chip.cause;
  }
  static image(): string | undefined {
    return chip.image;
  }
  static start(ms: number): boolean {
    chip.running = true;
    chip.timeoutMs = chip.kind === 'pico' ? Math.min(ms, RP2040_MAX_MS) : 10000;
    chip.fedAt = net.now;
    return true;
  }
  static feed(): void {
    if (chip.bitten()) return; // too late: the chip is restarting
    chip.fedAt = net.now;
    chip.feeds++;
  }
}
