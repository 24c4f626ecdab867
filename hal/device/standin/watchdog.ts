// Desktop-host (lin) stand-in for the `watchdog` module (native/watchdog/watchdog.js on the chips):
// mcsim is a process, with no watchdog to start; each start of it is a power-on. A system/reset there
// is a soft reset, counted as a reset by hal/device/restarts.ts.

export type ChipCause = 'watchdog' | 'power' | 'pin' | 'software' | 'crash';

export default class Watchdog {
  static cause(): ChipCause {
    return 'power';
  }
  /** mcsim's image is not told apart: a restart is a power-on. */
  static image(): string | undefined {
    return undefined;
  }
  static start(_ms: number): boolean {
    return false;
  }
  static feed(): void { /* nothing to feed */ }
}
Object.freeze(Watchdog.prototype);
