// `src/device/link/platform` on the boards that join by Wi-Fi (the manifest's platform sections map
// it): the SDK's ECMA-419 Wi-Fi object, which network.ts joins to config.ssid.

import WiFi from 'embedded:network/interface/wifi';

export const LINK_NAME = 'Wi-Fi';
/** A Wi-Fi link has something to join only when an SSID is configured (none on the desktop host). */
export const NEEDS_SSID = true;
export default WiFi;
