// ota-state: what ESP-IDF knows of the running app and its rollback, for the firmware HAL
// (hal/device/firmware/esp32.ts). The SDK has no JavaScript for these; ota-state.c is the native half.
/* global native */

export default Object.freeze({
	running() { return native("xs_ota_state_running").call(this); },
	onTrial() { return native("xs_ota_state_on_trial").call(this); },
	confirm() { return native("xs_ota_state_confirm").call(this); },
	rollbackVersion() { return native("xs_ota_state_rollback_version").call(this); },
	chipId() { return native("xs_ota_state_chip_id").call(this); },
}, true);
