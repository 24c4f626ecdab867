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
 * - A panic or a hard fault: pico-sdk's panic() ends in _exit(1) (pico_platform_panic/panic.c:82),
 *   whose weak default loops on a BKPT (pico_clib_interface/newlib_interface.c:40-48), and the hard
 *   fault handler is a BKPT (pico_crt0/crt0.S:333, decl_isr_bkpt). With no debugger a BKPT is itself a
 *   fault: the core locks up until the watchdog times out, and the next boot would read a watchdog.
 *   This file replaces both (release builds): a note in watchdog scratch register 0, then the
 *   watchdog's reset at once; the next boot reads a crash. pico-sdk keeps scratch 4-7 for itself
 *   (watchdog.c:96-106); the boot ROM's reset_usb_boot writes 0 and 1 (its GPIO and interface masks)
 *   before it restarts into the USB boot loader, which only ever clears a note (read as no crash).
 *   What a fault runs is in RAM (__not_in_flash_func): a fault while XIP is off (a flash erase or
 *   write under way) cannot fetch from flash, and would lock the core until the watchdog's timeout,
 *   read as a watchdog at the next boot. So the restart does not call watchdog_reboot (in flash) but
 *   writes its steps for a regular boot itself (watchdog.c:92-111 with _watchdog_enable :48-66,
 *   delay 0), with the SDK's inline register helpers.
 * - image(): a hash of the program in flash (XIP_BASE up to the linker's __flash_binary_end), so that
 *   a restart into another image (the boot ROM's restart after a UF2 download reads as
 *   watchdog_reboot's) is told from one the firmware asked for or an XS abort.
 *
 * A debug build runs no watchdog: while xsbug holds the VM at a breakpoint no timer feeds it.
 */

#include "xsmc.h"
#include "hardware/watchdog.h"
#include "hardware/structs/psm.h"
#include "hardware/structs/vreg_and_chip_reset.h"
#include "hardware/regs/addressmap.h"

#define kWatchdogMaxMS (0xffffff / 2000)
#define kCrashNote 0x43525348		/* "CRSH" */

static const char *gCause;

#ifndef mxDebug
static inline void __attribute__((always_inline, noreturn)) crashRestart(void)
{
	watchdog_hw->scratch[0] = kCrashNote;
	hw_clear_bits(&watchdog_hw->ctrl, WATCHDOG_CTRL_ENABLE_BITS);
	watchdog_hw->scratch[4] = 0;	/* the regular boot path, no vector */
	hw_set_bits(&psm_hw->wdsel, PSM_WDSEL_BITS & ~(PSM_WDSEL_ROSC_BITS | PSM_WDSEL_XOSC_BITS));
	hw_clear_bits(&watchdog_hw->ctrl, WATCHDOG_CTRL_PAUSE_DBG0_BITS | WATCHDOG_CTRL_PAUSE_DBG1_BITS | WATCHDOG_CTRL_PAUSE_JTAG_BITS);
	hw_set_bits(&watchdog_hw->ctrl, WATCHDOG_CTRL_TRIGGER_BITS);
	while (1)
		;
}

void __attribute__((noreturn)) __not_in_flash_func(_exit)(int status)
{
	(void)status;
	crashRestart();
}

void __not_in_flash_func(isr_hardfault)(void)
{
	crashRestart();
}
#endif

void xs_watchdog_cause(xsMachine *the)
{
	if (!gCause) {
		if (watchdog_hw->scratch[0] == kCrashNote)
			gCause = "crash";
		else if (watchdog_enable_caused_reboot())
			gCause = "watchdog";
		else if (watchdog_caused_reboot())
			gCause = "software";
		else if (vreg_and_chip_reset_hw->chip_reset & VREG_AND_CHIP_RESET_CHIP_RESET_HAD_RUN_BITS)
			gCause = "pin";
		else
			gCause = "power";
		watchdog_hw->scratch[0] = 0;
	}
	xsmcSetString(xsResult, (char *)gCause);
}

void xs_watchdog_image(xsMachine *the)
{
	extern char __flash_binary_end;
	static uint32_t hash;
	char text[9];

	if (!hash) {
		const uint32_t *word = (const uint32_t *)XIP_BASE, *end = (const uint32_t *)&__flash_binary_end;
		hash = 2166136261u;
		while (word < end)
			hash = (hash ^ *word++) * 16777619u;
	}
	for (int i = 0; i < 8; i++)
		text[i] = "0123456789abcdef"[(hash >> (28 - 4 * i)) & 15];
	text[8] = 0;
	xsmcSetString(xsResult, text);
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
