// The chip's watchdog, fed from the main loop: a timer feeds it every 4 s, so a JavaScript loop that
// never returns (and with it every timer) stops the feeding and the chip restarts, 10 s after the last
// feed on an ESP32 (the sdkconfig's task watchdog) and 8.4 s on a Pico W (the most the RP2040 counts).
// Every 4 s rather than every second: an idle module's main loop turns for little else, and each turn
// wakes the core; a feed may still come 4.4 s late on the Pico (a long turn) before the chip restarts.
// The desktop host has none. The restart's cause is read at the next boot (hal/device/restarts.ts).

import Timer from 'timer';
import Watchdog from 'watchdog';

export const WATCHDOG_MS = 10000;
export const FEED_MS = 4000;

/** Start the watchdog and its feeding; false where the platform has none. */
export function startWatchdog(): boolean {
  if (!Watchdog.start(WATCHDOG_MS)) return false;
  Timer.repeat(() => Watchdog.feed(), FEED_MS);
  trace(`watchdog: on, fed every ${FEED_MS} ms\n`);
  return true;
}
