// Desktop-host (lin) stand-in for embedded:network/interface/wifi, which the Moddable Linux host does not
// have: the host's network is always there. src/device/network.ts makes one only when config.ssid is
// set; then it reports an address (the loopback one) right after connect(), as a joined station would.

import Timer from 'timer';

export default class WiFi {
  private state = 200;
  private readonly onChanged?: (this: WiFi, property: string) => void;

  constructor(options: { onChanged?(this: WiFi, property: string): void }) {
    this.onChanged = options.onChanged;
  }

  get connection(): number {
    return this.state;
  }

  get address(): string | undefined {
    return this.state === 500 ? '127.0.0.1' : undefined;
  }

  /** No Wi-Fi driver, so no station MAC: the desktop host's identifier is config.lin.mac (platform/lin.ts). */
  get MAC(): string | undefined {
    return undefined;
  }

  connect(_options: { SSID: string; password?: string }): void {
    this.state = 300;
    Timer.set(() => {
      this.state = 500;
      if (this.onChanged) this.onChanged.call(this, 'connection');
    }, 0);
  }

  disconnect(): void {
    this.state = 200;
  }

  close(): void { /* nothing held */ }
}
Object.freeze(WiFi.prototype);
