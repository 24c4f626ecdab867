/*
 * The ESP32's task watchdog for native/watchdog/watchdog.js. The project's sdkconfig
 * (esp32/sdkconfig.defaults.release) turns it on at 10 s with a panic in release builds, and a
 * panic restarts the chip (a debug build has none: xsbug stops the loop at a breakpoint); the
 * SDK's main task subscribes itself (build/devices/esp32/lib/main/main.c:86-87) and its message loop
 * feeds it (xs/platforms/esp/xsHost.c, modMessageService): a JavaScript loop that never returns stops
 * both that and this feed. The cause comes from esp_reset_reason() (ESP-IDF esp_system.h).
 * On the original ESP32 the EN button is the chip's power-up pin (CHIP_PU): the ROM reports it as
 * a power-on, RESET_REASON_CHIP_POWER_ON (ESP-IDF v6.0 components/soc/esp32/include/soc/
 * reset_reasons.h, POWERON_RESET in esp_rom's esp32/rom/rtc.h:76), which esp_reset_reason() gives as
 * ESP_RST_POWERON (components/esp_system/port/soc/esp32/reset_reason.c:19-20); ESP_RST_EXT is "not
 * applicable for ESP32" (esp_system.h:27) and no register or RTC memory outlives the press, so a
 * press of EN is counted as `power` there. Later chips report ESP_RST_EXT for their reset pin.
 * image() answers nothing: an ESP32 takes a new firmware over HTTP, which leaves its note first.
 */

#include "xsmc.h"
#include "esp_system.h"
#include "esp_task_wdt.h"

void xs_watchdog_cause(xsMachine *the)
{
	const char *cause;

	switch (esp_reset_reason()) {
		case ESP_RST_TASK_WDT:
		case ESP_RST_INT_WDT:
		case ESP_RST_WDT:
			cause = "watchdog";
			break;
		case ESP_RST_POWERON:
		case ESP_RST_BROWNOUT:
		case ESP_RST_PWR_GLITCH:	/* the supply dipped: power, not the firmware */
		case ESP_RST_DEEPSLEEP:
			cause = "power";
			break;
		case ESP_RST_EXT:
		case ESP_RST_USB:		/* a host reset the chip (esptool, the USB-serial-JTAG) */
		case ESP_RST_JTAG:		/* a debugger did */
		case ESP_RST_SDIO:		/* an SDIO host did */
			cause = "pin";
			break;
		case ESP_RST_SW:
			cause = "software";		/* esp_restart(): System.restart, and XS's abort (c_exit) */
			break;
		default:
			cause = "crash";		/* ESP_RST_PANIC, ESP_RST_CPU_LOCKUP, ESP_RST_EFUSE, ESP_RST_UNKNOWN */
			break;
	}
	xsmcSetString(xsResult, (char *)cause);
}

void xs_watchdog_image(xsMachine *the)
{
}

void xs_watchdog_start(xsMachine *the)
{
#if CONFIG_ESP_TASK_WDT_EN
	esp_task_wdt_reset();		/* the timeout is the sdkconfig's */
	xsmcSetBoolean(xsResult, 1);
#else
	xsmcSetBoolean(xsResult, 0);
#endif
}

void xs_watchdog_feed(xsMachine *the)
{
#if CONFIG_ESP_TASK_WDT_EN
	esp_task_wdt_reset();
#endif
}
