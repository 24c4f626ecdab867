// Why the module started, and how often it has, by cause (GET /metrics: brainstem_restarts_total).
// The chip tells watchdog, power, the reset pin, or a software restart (native/watchdog/); a software
// restart is one the firmware asked for only when it left a note first (`expect`, written just before
// System.restart: "reset" for system/reset and factory defaults, "update" for a firmware update): without
// the note it was XS aborting (both chips' abort restarts the same way, xs/platforms/esp/xsHost.h and
// xs/platforms/pico/xsHost.h c_exit), a crash. The counts live in Preference (domain `restarts`, one
// integer a cause), counted once a boot, read when asked: nothing in RAM.

import { RESTART_CAUSES } from '../kit/restart-causes';
import type { PreferenceStore } from './settings';
const DOMAIN = 'restarts';
const NOTE = 'expect';
/** What the chip ran at its last start (Watchdog.image()). */
const IMAGE = 'image';

/**
 * The cause of this start, from what the chip says, the note left before a restart it asked for, and
 * whether the chip runs another image than at its last start (a new firmware the firmware did not write
 * itself: the Pico's boot ROM restarts the chip as watchdog_reboot does after a UF2 download).
 */
export function restartCause(chip: string, note: unknown, newImage = false): string {
  if (chip === 'software') return note === 'reset' || note === 'update' ? note : newImage ? 'update' : 'crash';
  if (chip === 'pin') return 'reset';
  return RESTART_CAUSES.indexOf(chip) >= 0 ? chip : 'crash';
}

export class RestartLog {
  private readonly prefs: PreferenceStore;
  /** Why the module started this time. */
  readonly cause: string;

  /** @param image what the chip runs (Watchdog.image()), where it tells images apart */
  constructor(prefs: PreferenceStore, chipCause: string, image?: string) {
    this.prefs = prefs;
    let note: unknown;
    let last: unknown;
    try {
      note = prefs.get(DOMAIN, NOTE);
      if (note !== undefined) prefs.delete(DOMAIN, NOTE);
      last = prefs.get(DOMAIN, IMAGE);
      if (image !== undefined && last !== image) prefs.set(DOMAIN, IMAGE, image);
    } catch { /* no note, or the image not kept: a restart then reads as before */ }
    this.cause = restartCause(chipCause, note, image !== undefined && last !== undefined && last !== image);
    this.add(this.cause);
    trace(`boot: started by ${this.cause} (${chipCause})\n`);
  }

  /** Restarts counted for `cause`. */
  count(cause: string): number {
    try {
      const n = this.prefs.get(DOMAIN, cause);
      return typeof n === 'number' ? n : 0;
    } catch {
      return 0;
    }
  }

  /** Starts counted, whatever their cause: a number no earlier boot had (the nonces' secret mixes it in). */
  boots(): number {
    let n = 0;
    for (const cause of RESTART_CAUSES) n += this.count(cause);
    return n;
  }

  /** A restart the firmware asks for next ("reset" or "update"): noted, so the next boot tells it from a crash. */
  expect(cause: 'reset' | 'update'): void {
    try { this.prefs.set(DOMAIN, NOTE, cause); } catch { /* counted as a crash */ }
  }

  /** A soft reset (a platform that cannot restart): a reset, counted now. */
  softReset(): void {
    try { this.prefs.delete(DOMAIN, NOTE); } catch { /* none */ }
    this.add('reset');
  }

  private add(cause: string): void {
    try {
      this.prefs.set(DOMAIN, cause, (this.count(cause) + 1) | 0);
    } catch (e) {
      trace(`boot: restart not counted (${(e as Error).message})\n`);
    }
  }
}
Object.freeze(RestartLog.prototype);
