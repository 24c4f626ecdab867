// The chip's watchdog and why the chip last started, as host functions (wdt-esp32.c, wdt-pico.c; the
// desktop host maps `watchdog` to hal/device/standin/watchdog.ts). No state: preloaded into flash.
// Read cause() before start(): on the Pico, starting the watchdog changes what the chip reports.

export default class Watchdog {
	/** "watchdog", "power", "pin" (the reset pin or button), "software" (a restart the firmware asked for, or an XS abort), "crash" (a panic, a hard fault). */
	static cause() @ "xs_watchdog_cause";
	/** What the chip runs, as text that changes with the image (the Pico's program in flash), or undefined. */
	static image() @ "xs_watchdog_image";
	/** Restart the chip when feed() is not called for `ms` (the chip may count less: the Pico's counts 8,388 ms at most). false: no watchdog runs. */
	static start(ms) @ "xs_watchdog_start";
	static feed() @ "xs_watchdog_feed";
}
Object.freeze(Watchdog.prototype);
