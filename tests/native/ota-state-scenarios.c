/* esp32/ota-state.c on the host (tests/native-ota-state.test.ts): the version xs_ota_state_rollback_version()
 * reports for the other OTA slot in the states a chip meets, one line each, `<scenario> <version or ->`.
 * ESP-IDF's esp_ota_check_rollback_is_possible() (app_update/esp_ota_ops.c) is the judge of whether a
 * rollback would boot that slot: it validates the image, which a download cut mid-body fails although
 * its otadata entry stays VALID and its header readable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xsmc.h"
#include "app_update/include/esp_ota_ops.h"

static const esp_partition_t running = { "ota_0" }, other = { "ota_1" };
static esp_ota_img_states_t otherState;
static bool headerReadable, imageWhole;

const esp_partition_t *esp_ota_get_running_partition(void) { return &running; }
const esp_partition_t *esp_ota_get_next_update_partition(const esp_partition_t *start) { return &other; }
esp_err_t esp_ota_get_state_partition(const esp_partition_t *p, esp_ota_img_states_t *state)
{
	*state = (p == &other) ? otherState : ESP_OTA_IMG_VALID;
	return ESP_OK;
}
esp_err_t esp_ota_get_partition_description(const esp_partition_t *p, esp_app_desc_t *desc)
{
	if (!headerReadable)
		return ESP_FAIL;
	strcpy(desc->version, "2.11.0");
	return ESP_OK;
}
esp_err_t esp_ota_mark_app_valid_cancel_rollback(void) { return ESP_OK; }
void fakeThrow(xsMachine *the, const char *message) { fprintf(stderr, "%s\n", message); exit(1); }
bool esp_ota_check_rollback_is_possible(void)
{
	return headerReadable && imageWhole && (otherState != ESP_OTA_IMG_INVALID) && (otherState != ESP_OTA_IMG_ABORTED);
}

#include "../../esp32/ota-state.c"

static void scenario(const char *name, esp_ota_img_states_t state, bool header, bool whole)
{
	static struct xsMachineRecord machine;
	memset(&machine.result, 0, sizeof(machine.result));
	otherState = state;
	headerReadable = header;
	imageWhole = whole;
	xs_ota_state_rollback_version(&machine);
	printf("%s %s\n", name, (kFakeString == machine.result.kind) ? machine.result.text : "-");
}

int main(void)
{
	scenario("previous-image", ESP_OTA_IMG_VALID, true, true);
	scenario("download-cut-mid-body", ESP_OTA_IMG_VALID, true, false);
	scenario("rolled-back-from", ESP_OTA_IMG_INVALID, true, true);
	scenario("aborted", ESP_OTA_IMG_ABORTED, true, true);
	scenario("never-written", ESP_OTA_IMG_UNDEFINED, false, false);
	return 0;
}
