// Types of ota-state.js (the native module the ESP32 firmware HAL reads ESP-IDF's OTA state through).
declare const OtaState: {
  /** The running app partition's label (ota_0, ota_1, factory). */
  running(): string;
  /** The running app is on trial (ESP_OTA_IMG_PENDING_VERIFY). */
  onTrial(): boolean;
  /** esp_ota_mark_app_valid_cancel_rollback(). */
  confirm(): void;
  /** The app version in the other OTA partition when it holds a valid app (a rollback's target). */
  rollbackVersion(): string | undefined;
  /** CONFIG_IDF_FIRMWARE_CHIP_ID of this build (esp_chip_id_t). */
  chipId(): number;
};
export default OtaState;
