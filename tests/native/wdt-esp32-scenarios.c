/* native/watchdog/esp32/wdt-esp32.c on the host (tests/native-wdt.test.ts): xs_watchdog_cause() for every
 * reset reason ESP-IDF v6.0 reports, one line each, `<number> <name> <cause>`. */
#include <stdio.h>
#include "xsmc.h"
#include "esp_system.h"
#include "esp_task_wdt.h"

static esp_reset_reason_t reason;
esp_reset_reason_t esp_reset_reason(void) { return reason; }
esp_err_t esp_task_wdt_reset(void) { return 0; }

#include "../../native/watchdog/esp32/wdt-esp32.c"

static const char *const NAMES[] = { "UNKNOWN", "POWERON", "EXT", "SW", "PANIC", "INT_WDT", "TASK_WDT", "WDT", "DEEPSLEEP",
	"BROWNOUT", "SDIO", "USB", "JTAG", "EFUSE", "PWR_GLITCH", "CPU_LOCKUP" };

int main(void)
{
	static struct xsMachineRecord machine;
	for (int r = ESP_RST_UNKNOWN; r <= ESP_RST_CPU_LOCKUP; r++) {
		reason = (esp_reset_reason_t)r;
		xs_watchdog_cause(&machine);
		printf("%d %s %s\n", r, NAMES[r], machine.result.text);
	}
	return 0;
}
