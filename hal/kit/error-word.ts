// system/errors, the same on both HALs: a word of fault bits kept in RAM. A fault sets its bit; reading
// system/errors returns the word and clears it (BrainStem: reading the errors clears them); a reset
// (system/reset, factory defaults, power) starts with none, as a RAM word would.

/** Bits of system/errors. The simulator raises all of them; the device raises ERR_STORAGE and ERR_HARDWARE. */
export const ERR_RAIL_FAULT = 1 << 0;
export const ERR_PORT_OVERCURRENT = 1 << 1;
export const ERR_STORE_LOCKED = 1 << 2;
export const ERR_CAPTURE = 1 << 3;
/** Saved settings could not be written (system/save answers aErrIO; the simulator also flags any
 * failed write of its flash, a store slot included). */
export const ERR_STORAGE = 1 << 4;
/** An entity's hardware could not be put in its saved state at boot (a pin that would not open). */
export const ERR_HARDWARE = 1 << 5;

export class ErrorWord {
  private bits = 0;

  /** Set `bit`; true when it was not set yet (the first report of a fault, worth a log line). */
  flag(bit: number): boolean {
    const fresh = (this.bits & bit) === 0;
    this.bits |= bit;
    return fresh;
  }

  /** system/errors: the word, cleared by the reading. */
  take(): number {
    const out = this.bits >>> 0;
    this.bits = 0;
    return out;
  }

  /** A reset: no faults yet. */
  clear(): void {
    this.bits = 0;
  }
}
Object.freeze(ErrorWord.prototype);
