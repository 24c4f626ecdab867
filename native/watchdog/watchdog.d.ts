// Types of native/watchdog/watchdog.js (mcconfig maps the `watchdog` specifier here for tsc).

export type ChipCause = 'watchdog' | 'power' | 'pin' | 'software' | 'crash';

export default class Watchdog {
  static cause(): ChipCause;
  static image(): string | undefined;
  static start(ms: number): boolean;
  static feed(): void;
}
