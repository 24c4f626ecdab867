/* ESP-IDF's task watchdog feed (components/esp_system/include/esp_task_wdt.h); the scenario counts feeds. */
#pragma once
#define CONFIG_ESP_TASK_WDT_EN 1
typedef int esp_err_t;
esp_err_t esp_task_wdt_reset(void);
