/* The sdkconfig value esp32/ota-state.c reads (ESP-IDF: the ESP32's esp_chip_id_t). */
#pragma once
#define CONFIG_IDF_FIRMWARE_CHIP_ID 0x0000
