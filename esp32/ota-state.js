// ota-state: what ESP-IDF knows of the running app and its rollback, for the firmware HAL
// (hal/device/firmware/esp32.ts). The SDK has no JavaScript for these; ota-state.c is the native half.
/* global native */

export default Object.freeze({
	running() { return native("xs_ota_state_running")(); },
	onTrial() { return native("xs_ota_state_on_trial")(); },
	confirm() { return native("xs_ota_state_confirm")(); },
	rollbackVersion() { return native("xs_ota_state_rollback_version")(); },
	chipId() { return native("xs_ota_state_chip_id")(); },
}, true);
