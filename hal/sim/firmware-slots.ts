// The simulated module's two firmware slots (docs/firmware.md): which runs, whether it has confirmed
// itself, what a rollback returns to. A new image is "restarted into" on trial and confirms itself once
// the module has served a request; an image that never starts (its header says so: a test of a
// rollout) leaves the module silent for ROLLBACK_MS, as a board whose watchdog keeps firing, then back
// on the old firmware, as ESP-IDF's app rollback does. Kept with the saved settings (the flash).

import type { FirmwareStatus } from '../types';
import { packVersion } from '../kit/version';
import type { SimContext } from './context';

/** Firmware identity a fresh simulated module runs. */
export const FIRMWARE = { major: 2, minor: 11, patch: 3, build: 0x5a17c0de };

/** How long a module that restarted into an image that never starts stays silent before it rolls back. */
export const ROLLBACK_MS = 15000;

export interface SlotImage { version: number; build: number }

export interface SlotState {
  running: SlotImage;
  /** 0 or 1: slot a or b. */
  slot: number;
  /** The image in the other slot a rollback would return to (null: none, or it was refused). */
  other: SlotImage | null;
  confirmed: boolean;
}

export class FirmwareSlots {
  state: SlotState;
  /** Wall time the module comes back after restarting into an image that never starts; 0 while it serves. */
  private silentUntil = 0;

  constructor(private readonly ctx: SimContext) {
    const saved = ctx.persist.firmware as SlotState | undefined;
    // A damaged or missing record is a module fresh from the factory.
    this.state = saved && saved.running && typeof saved.running.version === 'number' && typeof saved.running.build === 'number' ? saved
      : { running: { version: packVersion(FIRMWARE.major, FIRMWARE.minor, FIRMWARE.patch), build: FIRMWARE.build }, slot: 0, other: null, confirmed: true };
  }

  status(): FirmwareStatus {
    const s = this.state;
    return { version: s.running.version, build: s.running.build, slot: s.slot ? 'sim-b' : 'sim-a', confirmed: s.confirmed,
      rollback: s.other ? s.other.version : -1 };
  }

  /** After the 202: the module restarts into `image` (its saved settings come back, unsaved ones go). */
  restartInto(image: SlotImage, neverStarts: boolean): void {
    if (neverStarts) {
      this.silentUntil = this.ctx.wall() + ROLLBACK_MS;
      this.ctx.log(`restart into firmware that does not start; rollback in ${ROLLBACK_MS / 1000} s`);
      return;
    }
    const s = this.state;
    this.state = { running: image, slot: 1 - s.slot, other: s.running, confirmed: false };
    this.store();
    this.ctx.reboot();
  }

  /** false while silent; the first call past the rollback time restarts the module on its old firmware. */
  serving(): boolean {
    if (this.silentUntil === 0) return true;
    if (this.ctx.wall() < this.silentUntil) return false;
    this.silentUntil = 0;
    this.ctx.reboot();
    this.ctx.log('rolled back: the new firmware never confirmed itself');
    return true;
  }

  /** The module served a request: firmware on trial confirms itself. */
  served(): void {
    if (this.state.confirmed) return;
    this.state = { ...this.state, confirmed: true };
    this.store();
  }

  private store(): void {
    this.ctx.persist.firmware = this.state;
    this.ctx.persist.write();
  }
}
Object.freeze(FirmwareSlots.prototype);
