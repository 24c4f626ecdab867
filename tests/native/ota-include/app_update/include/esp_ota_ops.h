/* What esp32/ota-state.c uses of ESP-IDF v6.0's app_update (components/app_update/include/esp_ota_ops.h),
 * answered by tests/native/ota-state-scenarios.c as a chip in a given state would. */
#pragma once
#include <stdbool.h>
#include <stdint.h>
typedef int esp_err_t;
#define ESP_OK 0
#define ESP_FAIL -1
typedef struct { char label[17]; } esp_partition_t;
typedef struct { char version[32]; } esp_app_desc_t;
typedef enum {
	ESP_OTA_IMG_NEW = 0x0, ESP_OTA_IMG_PENDING_VERIFY = 0x1, ESP_OTA_IMG_VALID = 0x2, ESP_OTA_IMG_INVALID = 0x3,
	ESP_OTA_IMG_ABORTED = 0x4, ESP_OTA_IMG_UNDEFINED = 0xFFFFFFFF,
} esp_ota_img_states_t;
const esp_partition_t *esp_ota_get_running_partition(void);
const esp_partition_t *esp_ota_get_next_update_partition(const esp_partition_t *start_from);
esp_err_t esp_ota_get_state_partition(const esp_partition_t *partition, esp_ota_img_states_t *ota_state);
esp_err_t esp_ota_get_partition_description(const esp_partition_t *partition, esp_app_desc_t *app_desc);
esp_err_t esp_ota_mark_app_valid_cancel_rollback(void);
bool esp_ota_check_rollback_is_possible(void);
