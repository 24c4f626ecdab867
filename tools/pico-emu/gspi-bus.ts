// The gSPI bus of the CYW43439 as the Pico W's driver speaks it: 32-bit commands (write, increment,
// function, address, length: make_cmd in pico_cyw43_driver/cyw43_bus_pio_spi.c:371), function 0
// (the bus's own registers, lib/cyw43-driver/src/cyw43_spi.h:46-117), function 1 (the backplane)
// and function 2 (WLAN frames). Until the driver sets WORD_LENGTH_32 the bus is in its power-on
// 16-bit mode: each pair of bytes goes swapped on the wire (read_reg_u32_swap and
// write_reg_u32_swap use SWAP32, a rev16, cyw43_bus_pio_spi.c:82-96, 391-447).
import { Backplane } from './backplane';

export const BUS_FUNCTION = 0, BACKPLANE_FUNCTION = 1, WLAN_FUNCTION = 2;
export const TEST_PATTERN = 0xfeedbead;
const BUS_CONTROL = 0x00, INTERRUPT = 0x04, INTERRUPT_ENABLE = 0x06, STATUS = 0x08;
const F1_INFO = 0x0c, F2_INFO = 0x0e, READ_TEST = 0x14, RESP_DELAY_F1 = 0x1d;
const WORD_LENGTH_32 = 0x01, INTERRUPT_POLARITY_HIGH = 0x20;
const FUNCTION_ENABLED = 1, FUNCTION_READY = 2;
// interrupt register and status register bits (cyw43_spi.h:84-117)
export const F2_PACKET_AVAILABLE = 0x0020;
export const STATUS_F2_RX_READY = 0x20, STATUS_F2_PKT_AVAILABLE = 0x100;
const STATUS_F2_PKT_LEN_SHIFT = 9;

export interface GspiCommand {
  write: boolean;
  increment: boolean;
  fn: number;
  addr: number;
  len: number;
}

/** The WLAN function: frames to and from the firmware's SDPCM layer. */
export interface WlanPort {
  ready(): boolean;
  pendingLength(): number; // the size of the next frame for the host, 0 when none
  readFrame(len: number): Uint8Array;
  writeFrame(bytes: Uint8Array): void;
}

export function decodeCommand(word: number): GspiCommand {
  const fn = (word >>> 28) & 3;
  const len = word & 0x7ff;
  return {
    write: (word >>> 31) === 1, increment: ((word >>> 30) & 1) === 1, fn, addr: (word >>> 11) & 0x1ffff,
    len: len === 0 && fn !== BUS_FUNCTION ? 2048 : len,
  };
}

export function encodeCommand(c: GspiCommand): number {
  return ((c.write ? 1 << 31 : 0) | (c.increment ? 1 << 30 : 0) | (c.fn << 28) | ((c.addr & 0x1ffff) << 11) | (c.len & 0x7ff)) >>> 0;
}

/** Swaps each pair of bytes: the 16-bit mode's order on the wire. */
export function swapPairs(b: Uint8Array): Uint8Array {
  const out = Uint8Array.from(b);
  for (let i = 0; i + 1 < out.length; i += 2) {
    out[i] = b[i + 1];
    out[i + 1] = b[i];
  }
  return out;
}

export class GspiBus {
  private readonly f0 = new Uint8Array(0x100);
  private latched = 0;

  constructor(readonly backplane: Backplane, private readonly wlan: WlanPort) {}

  get word32(): boolean {
    return (this.f0[BUS_CONTROL] & WORD_LENGTH_32) !== 0;
  }

  /** The command in the first four bytes a transfer shifts in. */
  command(wire: Uint8Array): GspiCommand {
    const b = this.word32 ? wire : swapPairs(wire);
    return decodeCommand((b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0);
  }

  /** The bytes the chip shifts out after a read command (F1 reads begin with the response delay). */
  read(c: GspiCommand): Uint8Array {
    let out: Uint8Array;
    if (c.fn === BUS_FUNCTION) out = this.readRegisters(c.addr, Math.max(4, c.len));
    else if (c.fn === BACKPLANE_FUNCTION) {
      const pad = this.f0[RESP_DELAY_F1];
      out = new Uint8Array(pad + c.len);
      out.set(this.backplane.read(c.addr, c.len), pad);
    } else if (c.fn === WLAN_FUNCTION) out = this.wlan.readFrame(c.len);
    else out = new Uint8Array(c.len);
    return this.word32 ? out : swapPairs(out);
  }

  write(c: GspiCommand, wire: Uint8Array): void {
    const data = (this.word32 ? wire : swapPairs(wire)).subarray(0, c.len);
    if (c.fn === BUS_FUNCTION) this.writeRegisters(c.addr, data);
    else if (c.fn === BACKPLANE_FUNCTION) this.backplane.write(c.addr, data);
    else if (c.fn === WLAN_FUNCTION) this.wlan.writeFrame(data);
  }

  interruptStatus(): number {
    return this.latched | (this.wlan.pendingLength() ? F2_PACKET_AVAILABLE : 0);
  }

  /** The level of the shared DATA/IRQ line while the host does not select the chip. */
  irqLevel(): boolean {
    const enable = this.f0[INTERRUPT_ENABLE] | (this.f0[INTERRUPT_ENABLE + 1] << 8);
    const active = (this.interruptStatus() & enable) !== 0;
    return (this.f0[BUS_CONTROL] & INTERRUPT_POLARITY_HIGH) !== 0 && active;
  }

  private register(a: number): number {
    const le = (v: number, byte: number): number => (v >>> (8 * byte)) & 0xff;
    if (a >= INTERRUPT && a < INTERRUPT + 2) return le(this.interruptStatus(), a - INTERRUPT);
    if (a >= STATUS && a < STATUS + 4) return le(this.status(), a - STATUS);
    if (a >= READ_TEST && a < READ_TEST + 4) return le(TEST_PATTERN, a - READ_TEST);
    if (a === F1_INFO) return FUNCTION_ENABLED | FUNCTION_READY;
    if (a === F2_INFO) return FUNCTION_ENABLED | (this.wlan.ready() ? FUNCTION_READY : 0);
    return this.f0[a & 0xff];
  }

  private status(): number {
    const pending = this.wlan.pendingLength();
    return ((this.wlan.ready() ? STATUS_F2_RX_READY : 0) |
      (pending ? STATUS_F2_PKT_AVAILABLE | ((pending & 0x7ff) << STATUS_F2_PKT_LEN_SHIFT) : 0)) >>> 0;
  }

  private readRegisters(addr: number, len: number): Uint8Array {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i++) out[i] = this.register(addr + i);
    return out;
  }

  private writeRegisters(addr: number, data: Uint8Array): void {
    data.forEach((v, i) => {
      const a = (addr + i) & 0xff;
      if (a === INTERRUPT || a === INTERRUPT + 1) this.latched &= ~(v << (8 * (a - INTERRUPT))); // write 1 to clear
      else if (a === STATUS || a === READ_TEST) return;
      else this.f0[a] = v;
    });
  }
}
