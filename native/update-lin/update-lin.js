// `embedded:update` on the Moddable desktop host, for the budget builds (budget/module-features.json):
// the SDK has this module for the ESP32 and macOS only (modules/io/update/manifest.json). The same
// class shape as the SDK's ESP32 module (modules/io/update/esp32/update-esp32.js, SDK 8.2.3): open,
// write (append mode only, as the firmware HAL uses it), complete, close. The image goes into a file
// (update-lin.c says where) and is checked at complete() the way esp_ota_end checks it on the chip.
// As esp_ota_begin, open() refuses while the running app is on trial (ESP-IDF v6.0
// components/app_update/esp_ota_ops.c:163-170): the SDK's open then throws "begin failed" (:81-83).

import OtaState from "ota-state";

class Update extends Native("xs_brainstem_update_destructor") {
	constructor() { throw new TypeError; }
	close() { return native("xs_brainstem_update_close").call(this); }
	complete() { return native("xs_brainstem_update_complete").call(this); }
	write(buffer) { return native("xs_brainstem_update_write").call(this, buffer); }
	get format() { return "buffer"; }
	set format(value) {
		if (value != "buffer")
			throw new RangeError("invalid");
	}
}

function open(prototype) @ "xs_brainstem_update_open";

export default Object.freeze({
	open(options) {
		const partition = options?.partition;
		if (!partition)
			throw new Error("no partition");
		if (partition.readOnly)
			throw new Error("read-only partition");
		if ((options.mode !== undefined) && (options.mode !== "a"))
			throw new RangeError("invalid mode");
		if (OtaState.onTrial())
			throw new Error("begin failed");
		return open(Update.prototype);
	},
}, true);
