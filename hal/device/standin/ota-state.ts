// Desktop-host stand-in for the project's native ota-state module (esp32/ota-state.c), in the budget
// builds (budget/module-features.json): an ESP32 running a confirmed app from ota_0 with nothing to roll
// back to. The image it accepts is an ESP32 one (esp_chip_id_t 0), as `make esp32-app-image` makes.

export default Object.freeze({
  running: (): string => 'ota_0',
  onTrial: (): boolean => false,
  confirm: (): void => { /* a stand-in app is never on trial */ },
  rollbackVersion: (): string | undefined => undefined,
  chipId: (): number => 0,
});
