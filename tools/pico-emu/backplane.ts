// Function 1 of the gSPI bus: the SDIO core's own registers (0x1000x..0x1001f) and, through a
// 32 KB window, the chip's backplane: RAM (the firmware and NVRAM land there), the ARM and SOCSRAM
// core wrappers, chipcommon. What the driver reads and writes in cyw43_ll_bus_init
// (lib/cyw43-driver/src/cyw43_ll.c:1424-1790) and the clock requests it waits on.

// SDIO core registers on F1 (cyw43_ll.c:132-138, 241; SPI_FRAME_CONTROL in cyw43_spi.h:119)
const F2_WATERMARK = 0x10008;
const ADDRESS_LOW = 0x1000a, ADDRESS_MID = 0x1000b, ADDRESS_HIGH = 0x1000c;
const FRAME_CONTROL = 0x1000d;
const CHIP_CLOCK_CSR = 0x1000e;
const WAKEUP_CTRL = 0x1001e, SLEEP_CSR = 0x1001f;
// SDIO_CHIP_CLOCK_CSR bits (cyw43_ll.c:160-163)
const ALP_AVAIL = 0x40, HT_AVAIL = 0x80;
const KEEP_SDIO_ON = 1, DEVICE_ON = 2;

export const RAM_SIZE = 512 * 1024; // CYW43_RAM_SIZE (cyw43_ll.c:64)
const WINDOW_MASK = 0x7fff; // BACKPLANE_ADDR_MASK
const CHIPCOMMON = 0x18000000;
const ARM_WRAPPER = 0x18103000; // WLAN_ARMCM3_BASE_ADDRESS + WRAPPER_REGISTER_OFFSET
const AI_IOCTRL = 0x408, AI_RESETCTRL = 0x800, SICF_CPUHALT = 0x20;
const CHIP_ID = 43439;

export interface BackplaneHooks {
  firmwareStarted(): void;
  terminateFrame(): void;
  trace?(line: string): void;
}

export class Backplane {
  readonly ram = new Uint8Array(RAM_SIZE);
  private readonly regs = new Map<number, number>(); // backplane registers, byte-addressed
  private readonly sdio = new Map<number, number>();
  private window = 0;
  private clockCsr = 0;
  private sleepCsr = 0;
  running = false;

  constructor(private readonly hooks: BackplaneHooks) {
    // every core starts held in reset (disable_device_core expects AIRC_RESET, cyw43_ll.c:1208-1220)
    for (const wrapper of [ARM_WRAPPER, 0x18104000]) this.regs.set(wrapper + AI_RESETCTRL, 1);
    this.regs.set(CHIPCOMMON, CHIP_ID & 0xff);
    this.regs.set(CHIPCOMMON + 1, CHIP_ID >> 8);
    this.regs.set(CHIPCOMMON + 2, 1); // chip revision
  }

  read(addr: number, len: number): Uint8Array {
    const out = new Uint8Array(len);
    if (addr >= 0x10000) {
      out[0] = this.readSdio(addr);
      return out;
    }
    const base = this.window + (addr & WINDOW_MASK);
    for (let i = 0; i < len; i++) out[i] = this.readByte(base + i);
    return out;
  }

  write(addr: number, data: Uint8Array): void {
    if (addr >= 0x10000) {
      this.writeSdio(addr, data[0] ?? 0);
      return;
    }
    const base = this.window + (addr & WINDOW_MASK);
    for (let i = 0; i < data.length; i++) this.writeByte(base + i, data[i]);
    if (base >= CHIPCOMMON) this.afterRegisterWrite(base);
  }

  /** The NVRAM the driver downloaded, if its length word at the top of RAM checks (cyw43_ll.c:1649-1653). */
  nvram(): string | undefined {
    const w = (this.ram[RAM_SIZE - 4] | (this.ram[RAM_SIZE - 3] << 8) | (this.ram[RAM_SIZE - 2] << 16) | (this.ram[RAM_SIZE - 1] << 24)) >>> 0;
    const words = w & 0xffff;
    if (words === 0 || (w >>> 16) !== (~words & 0xffff)) return undefined;
    const start = RAM_SIZE - 4 - words * 4;
    return new TextDecoder().decode(this.ram.subarray(start, RAM_SIZE - 4));
  }

  private readByte(a: number): number {
    if (a < RAM_SIZE) return this.ram[a];
    return this.regs.get(a) ?? 0;
  }

  private writeByte(a: number, v: number): void {
    if (a < RAM_SIZE) this.ram[a] = v;
    else this.regs.set(a, v);
  }

  // The ARM core leaves reset without CPUHALT (reset_device_core, cyw43_ll.c:1222-1233, called at :1655): the
  // firmware in RAM starts, if there is one and an NVRAM with a valid length word.
  private afterRegisterWrite(a: number): void {
    if (a !== ARM_WRAPPER + AI_RESETCTRL || this.running) return;
    const released = (this.regs.get(a) ?? 1) === 0 && ((this.regs.get(ARM_WRAPPER + AI_IOCTRL) ?? 0) & SICF_CPUHALT) === 0;
    if (!released) return;
    const fw = this.ram.subarray(0, 0x1000).some((b) => b !== 0);
    const nv = this.nvram();
    this.hooks.trace?.(`ARM core released: firmware ${fw ? 'present' : 'absent'}, NVRAM ${nv ? nv.length + ' B' : 'absent'}`);
    if (fw && nv) {
      this.running = true;
      this.hooks.firmwareStarted();
    }
  }

  private readSdio(addr: number): number {
    // ALP is there once asked for; HT once the firmware runs (cyw43_ll.c:1583-1598, 1657-1667)
    if (addr === CHIP_CLOCK_CSR) return (this.clockCsr & 0x3f) | (this.clockCsr || this.running ? ALP_AVAIL : 0) | (this.running ? HT_AVAIL : 0);
    if (addr === SLEEP_CSR) return this.sleepCsr & KEEP_SDIO_ON ? KEEP_SDIO_ON | DEVICE_ON : 0;
    return this.sdio.get(addr) ?? 0;
  }

  private writeSdio(addr: number, v: number): void {
    if (addr === ADDRESS_LOW) this.window = (this.window & ~0xff00) | ((v << 8) & 0x8000);
    else if (addr === ADDRESS_MID) this.window = ((this.window & ~0xff0000) | (v << 16)) >>> 0;
    else if (addr === ADDRESS_HIGH) this.window = ((this.window & 0xffffff) | (v << 24)) >>> 0;
    else if (addr === CHIP_CLOCK_CSR) this.clockCsr = v;
    else if (addr === SLEEP_CSR) this.sleepCsr = v;
    else if (addr === FRAME_CONTROL && v & 1) this.hooks.terminateFrame();
    this.sdio.set(addr, v);
  }

  get f2Watermark(): number {
    return this.sdio.get(F2_WATERMARK) ?? 0;
  }

  get wakeupCtrl(): number {
    return this.sdio.get(WAKEUP_CTRL) ?? 0;
  }
}
