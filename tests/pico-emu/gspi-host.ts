// The host side of the Pico W's gSPI bus for the model's tests: fake GPIO pins in the shape of
// rp2040js's, driven edge by edge in the order the driver's PIO program drives them
// (pico_cyw43_driver/cyw43_bus_pio_spi.pio, spi_gap01_sample0: out + clock low, clock high per bit;
// then clock low, one idle clock high, and per bit: sample, clock low, clock high), and the register
// accessors of cyw43_bus_pio_spi.c built on it (make_cmd, SWAP32, backplane read padding).
import { GpioPinLike, PICO_W_PINS } from '../../tools/pico-emu/rp2040-pins';

const LOW = 0, HIGH = 1;

export class FakePin implements GpioPinLike {
  state = LOW;
  outputValue = false;
  inputValue = false;
  private readonly listeners = new Set<(s: number, o: number) => void>();
  addListener(cb: (s: number, o: number) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }
  setInputValue(v: boolean): void {
    this.inputValue = v;
  }
  drive(state: number): void {
    const old = this.state;
    if (old === state) return;
    this.state = state;
    this.listeners.forEach((cb) => cb(state, old));
  }
}

export const BUS = 0, BACKPLANE = 1, WLAN = 2;
export const PAD = 16; // CYW43_BACKPLANE_READ_PAD_LEN_BYTES

export const makeCmd = (write: boolean, fn: number, addr: number, size: number): number =>
  ((write ? 1 << 31 : 0) | (1 << 30) | (fn << 28) | ((addr & 0x1ffff) << 11) | (size & 0x7ff)) >>> 0;
const rev16 = (w: number): number => (((w & 0x00ff00ff) << 8) | ((w >>> 8) & 0x00ff00ff)) >>> 0;
const le = (w: number): number[] => [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24];
export const le32 = (b: Uint8Array, o = 0): number => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

export class GspiHost {
  readonly gpio: FakePin[] = Array.from({ length: 30 }, () => new FakePin());
  transfers = 0;

  get mcu(): { gpio: FakePin[] } {
    return { gpio: this.gpio };
  }

  wlOn(on: boolean): void {
    this.gpio[PICO_W_PINS.wlOn].drive(on ? HIGH : LOW);
    this.gpio[PICO_W_PINS.cs].drive(HIGH);
  }

  /** The DATA/IRQ line as gpio_get reads it between transfers. */
  get irq(): boolean {
    return this.gpio[PICO_W_PINS.data].inputValue;
  }

  /** cyw43_spi_transfer: tx bytes out, then rxLength bytes in; CS low throughout. */
  transfer(tx: Uint8Array, rxLength = 0): Uint8Array {
    const { cs, clk, data } = PICO_W_PINS;
    const c = this.gpio[clk], d = this.gpio[data];
    this.transfers++;
    this.gpio[cs].drive(LOW);
    for (const byte of tx) {
      for (let bit = 7; bit >= 0; bit--) {
        d.outputValue = ((byte >> bit) & 1) === 1;
        c.drive(LOW);
        c.drive(HIGH);
      }
    }
    const rx = new Uint8Array(rxLength);
    if (rxLength) {
      c.drive(LOW);
      c.drive(HIGH);
      for (let i = 0; i < rxLength * 8; i++) {
        if (d.inputValue) rx[i >> 3] |= 0x80 >> (i & 7);
        c.drive(LOW);
        c.drive(HIGH);
      }
    }
    c.drive(LOW);
    this.gpio[cs].drive(HIGH);
    return rx;
  }

  readRegU32Swap(fn: number, reg: number): number {
    const rx = this.transfer(Uint8Array.from(le(rev16(makeCmd(false, fn, reg, 4)))), 4);
    return rev16(le32(rx));
  }

  writeRegU32Swap(fn: number, reg: number, val: number): void {
    this.transfer(Uint8Array.from([...le(rev16(makeCmd(true, fn, reg, 4))), ...le(rev16(val))]));
  }

  readBytes(fn: number, addr: number, len: number): Uint8Array {
    const pad = fn === BACKPLANE ? PAD : 0;
    const rx = this.transfer(Uint8Array.from(le(makeCmd(false, fn, addr, len))), pad + ((len + 3) & ~3));
    return rx.subarray(pad, pad + len);
  }

  /** _cyw43_read_reg: a 1, 2 or 4-byte register, read as the whole word that follows. */
  readReg(fn: number, addr: number, size: number): number {
    const pad = fn === BACKPLANE ? PAD : 0;
    const rx = this.transfer(Uint8Array.from(le(makeCmd(false, fn, addr, size))), pad + 4);
    return le32(rx, pad);
  }

  writeBytes(fn: number, addr: number, bytes: Uint8Array): void {
    const padded = new Uint8Array(4 + ((bytes.length + 3) & ~3));
    padded.set(le(makeCmd(true, fn, addr, bytes.length)));
    padded.set(bytes, 4);
    this.transfer(padded);
  }

  writeReg(fn: number, addr: number, size: number, val: number): void {
    this.writeBytes(fn, addr, Uint8Array.from(le(val).slice(0, size)));
  }
}
