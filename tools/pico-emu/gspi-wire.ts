// The gSPI bus bit by bit, as the Pico W's PIO program drives it (pico_cyw43_driver/
// cyw43_bus_pio_spi.pio, spi_gap01_sample0, the default of cyw43_bus_pio_spi.c:38): the host puts
// each bit out with the clock low and raises the clock (the chip samples on the rising edge),
// most significant bit of each byte first, bytes in memory order (the DMA byte-swaps each word,
// and the PIO shifts out left). After the command and any data it turns the line around and
// samples the chip's bits with the clock low, one per clock period after one idle rising edge,
// so the chip puts bit n out at the (n+1)th rising edge after the last bit it received.
import { GspiCommand } from './gspi-bus';

export interface GspiTarget {
  command(wire: Uint8Array): GspiCommand;
  read(c: GspiCommand): Uint8Array;
  write(c: GspiCommand, wire: Uint8Array): void;
}

const MAX_TRANSFER = 4 + 2048 + 16;

export class GspiWire {
  private selected = false;
  private bits = 0; // bits received in this transfer
  private readonly rx = new Uint8Array(MAX_TRANSFER);
  private cmd: GspiCommand | undefined;
  private response: Uint8Array | undefined;
  private sent = 0; // bits put out
  transfers = 0;

  constructor(private readonly target: GspiTarget) {}

  /** CS falls: a transfer begins. */
  select(): void {
    this.selected = true;
    this.bits = 0;
    this.cmd = undefined;
    this.response = undefined;
    this.sent = 0;
  }

  /** CS rises: a write is complete (its length is in the command; padding is ignored). */
  deselect(): void {
    if (!this.selected) return;
    this.selected = false;
    const cmd = this.cmd;
    if (cmd?.write) this.target.write(cmd, this.rx.subarray(4, Math.max(4, this.bits >> 3)));
    if (cmd) this.transfers++;
  }

  /**
   * The clock rises with `mosi` on the data line. Returns the level the chip drives from now on,
   * or undefined while the host drives the line.
   */
  clockRise(mosi: boolean): boolean | undefined {
    if (!this.selected) return undefined;
    if (this.response) {
      const n = this.sent++;
      const byte = this.response[n >> 3] ?? 0;
      return ((byte >> (7 - (n & 7))) & 1) === 1;
    }
    const n = this.bits++;
    if (n >> 3 < MAX_TRANSFER) {
      const i = n >> 3;
      this.rx[i] = ((this.rx[i] << 1) | (mosi ? 1 : 0)) & 0xff;
    }
    if (this.bits === 32) {
      this.cmd = this.target.command(this.rx.subarray(0, 4));
      if (!this.cmd.write) this.response = this.target.read(this.cmd);
    }
    return undefined;
  }
}
