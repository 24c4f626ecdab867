/*
 * ota-state: the running app's OTA state for the firmware HAL (hal/device/firmware/esp32.ts), through
 * ESP-IDF's app_update component (esp_ota_ops.h). Needs CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE (the
 * project's esp32/sdkconfig.defaults) for an app to boot on trial (ESP_OTA_IMG_PENDING_VERIFY).
 * Moddable compiles this file with its own include list (tools/mcconfig/make.esp32.mk, INC_DIRS), which
 * has ESP-IDF's components/ but not components/app_update/include/: the header is named from
 * components/, as the SDK's modules/io/update/esp32/update-esp32.c does.
 */

#include "xsmc.h"
#include "xsHost.h"
#include "sdkconfig.h"
#include "app_update/include/esp_ota_ops.h"

/* The running partition's label: "ota_0", "ota_1", "factory". */
void xs_ota_state_running(xsMachine *the)
{
	const esp_partition_t *running = esp_ota_get_running_partition();
	xsmcSetString(xsResult, running ? (char *)running->label : "unknown");
}

/* true while the running app is on trial: a restart before confirm() rolls back. */
void xs_ota_state_on_trial(xsMachine *the)
{
	esp_ota_img_states_t state;
	const esp_partition_t *running = esp_ota_get_running_partition();
	xsmcSetBoolean(xsResult, running && (ESP_OK == esp_ota_get_state_partition(running, &state)) && (ESP_OTA_IMG_PENDING_VERIFY == state));
}

/* The running app works: cancel the rollback. */
void xs_ota_state_confirm(xsMachine *the)
{
	if (ESP_OK != esp_ota_mark_app_valid_cancel_rollback())
		xsUnknownError("confirm failed");
}

/* The version of the app a rollback would boot: the other OTA partition's, when ESP-IDF would boot it.
   esp_ota_check_rollback_is_possible() (app_update/esp_ota_ops.c) is the judge: it validates the image,
   which a download cut mid-body fails although its otadata entry stays VALID and its header readable.
   It reads the whole image (a SHA-256 over it): the firmware HAL asks once a boot and after an upload. */
void xs_ota_state_rollback_version(xsMachine *the)
{
	esp_app_desc_t desc;
	esp_ota_img_states_t state;
	const esp_partition_t *other = esp_ota_get_next_update_partition(NULL);
	if (!other || !esp_ota_check_rollback_is_possible() || (ESP_OK != esp_ota_get_partition_description(other, &desc)))
		return;
	if ((ESP_OK == esp_ota_get_state_partition(other, &state)) && ((ESP_OTA_IMG_INVALID == state) || (ESP_OTA_IMG_ABORTED == state)))
		return;
	desc.version[sizeof(desc.version) - 1] = 0;
	xsmcSetString(xsResult, desc.version);
}

/* The esp_chip_id_t this build is for (the chip_id an app image for it carries). */
void xs_ota_state_chip_id(xsMachine *the)
{
	xsmcSetInteger(xsResult, CONFIG_IDF_FIRMWARE_CHIP_ID);
}
