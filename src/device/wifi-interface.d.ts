// ECMA-419 Wi-Fi network interface as the Moddable SDK offers it on ESP32 and Pico W
// (modules/io/wifi/*/wifi-*.js); @moddable/typings has no declaration of it. Only what the
// network lifecycle (src/device/network.ts) uses.

declare module 'embedded:network/interface/wifi' {
  interface WiFiOptions {
    /** Called with "connection" or "address"; `this` is the Wi-Fi object. */
    onChanged?(this: WiFi, property: string): void;
  }
  class WiFi {
    constructor(options: WiFiOptions);
    /** 200 disconnected, 300 connecting, 400 associated without an address, 500 with an address. */
    readonly connection: number;
    readonly address: string | undefined;
    /**
     * The station's MAC once the driver has started (the constructor starts it): ESP32
     * esp_wifi_get_mac(WIFI_IF_STA), the base MAC in eFuse (wifi-esp32.c:564-574); Pico W
     * cyw43_wifi_get_mac, the CYW43's own (wifi-pico.c:586-595). undefined where it cannot be read.
     */
    readonly MAC?: string;
    connect(options: { SSID: string; password?: string }): void;
    disconnect(): void;
    close(): void;
  }
  export default WiFi;
}
