/* ESP-IDF v6.0's esp_reset_reason_t (components/esp_system/include/esp_system.h:24-41), in its order,
 * and esp_reset_reason(), which the scenario sets (tests/native/wdt-esp32-scenarios.c). */
#pragma once
typedef enum {
	ESP_RST_UNKNOWN, ESP_RST_POWERON, ESP_RST_EXT, ESP_RST_SW, ESP_RST_PANIC, ESP_RST_INT_WDT, ESP_RST_TASK_WDT,
	ESP_RST_WDT, ESP_RST_DEEPSLEEP, ESP_RST_BROWNOUT, ESP_RST_SDIO, ESP_RST_USB, ESP_RST_JTAG, ESP_RST_EFUSE,
	ESP_RST_PWR_GLITCH, ESP_RST_CPU_LOCKUP,
} esp_reset_reason_t;
esp_reset_reason_t esp_reset_reason(void);
