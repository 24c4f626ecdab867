/*
 * The RP2040's watchdog for native/watchdog/watchdog.js (pico-sdk 2.2.0, hardware_watchdog). The
 * Moddable build never enables it; this module does, and feeds it only when JavaScript asks, so a
 * JavaScript loop that never returns lets it restart the chip.
 *
 * - watchdog_enable() (watchdog.c:81-86) counts at most 0xffffff half-microseconds on the RP2040
 *   (WATCHDOG_XFACTOR 2, watchdog.c:31-33 and :68-70): 8,388 ms.
 * - watchdog_enable_caused_reboot() (watchdog.c:125-127) is a timeout of a watchdog we enabled;
 *   watchdog_caused_reboot() (:116-123) also covers watchdog_reboot(), which is how the SDK restarts
 *   the chip for System.restart and for an XS abort (xs/platforms/pico/xsHost.c pico_reboot,
 *   xsHost.h c_exit). watchdog_enable() writes the scratch register the first reads, so the cause is
 *   read once, before the start.
 * - Neither: the RUN pin (chip_reset HAD_RUN, regs/vreg_and_chip_reset.h:139) or a power-on.
 *
 * A debug build runs no watchdog: while xsbug holds the VM at a breakpoint no timer feeds it.
 */

#include "xsmc.h"
#include "hardware/watchdog.h"
#include "hardware/structs/vreg_and_chip_reset.h"

#define kWatchdogMaxMS (0xffffff / 2000)

static const char *gCause;

void xs_watchdog_cause(xsMachine *the)
{
	if (!gCause) {
		if (watchdog_enable_caused_reboot())
			gCause = "watchdog";
		else if (watchdog_caused_reboot())
			gCause = "software";
		else if (vreg_and_chip_reset_hw->chip_reset & VREG_AND_CHIP_RESET_CHIP_RESET_HAD_RUN_BITS)
			gCause = "pin";
		else
			gCause = "power";
	}
	xsmcSetString(xsResult, (char *)gCause);
}

void xs_watchdog_start(xsMachine *the)
{
	int ms = xsmcToInteger(xsArg(0));

	if (!gCause)
		xs_watchdog_cause(the);
#ifdef mxDebug
	xsmcSetBoolean(xsResult, 0);
	return;
#endif
	if (ms > kWatchdogMaxMS)
		ms = kWatchdogMaxMS;
	if (ms < 1)
		ms = 1;
	watchdog_enable(ms, true);		/* paused while a debugger holds the chip */
	xsmcSetBoolean(xsResult, 1);
}

void xs_watchdog_feed(xsMachine *the)
{
	watchdog_update();
}
