// A driver-like stub for the model's tests: the bus transactions of the cyw43-driver
// (lib/cyw43-driver/src/cyw43_ll.c: cyw43_ll_bus_init :1424, the backplane window :349-398,
// cyw43_sdpcm_send_common :641, cyw43_ll_sdpcm_poll_device (SPI) :1006, cyw43_do_ioctl :1154,
// the async event fields :592-616 and the join state of cyw43_ctrl.c:333-438), in the same order
// with the same registers, over the bit-level host of gspi-host.ts.
import { BACKPLANE, BUS, GspiHost, le32, WLAN } from './gspi-host';

const SPI_STATUS_REGISTER = 0x08, SPI_INTERRUPT_REGISTER = 0x04;
const CHIP_CLOCK_CSR = 0x1000e, SLEEP_CSR = 0x1001f;
const ADDR_LOW = 0x1000a, ADDR_MID = 0x1000b, ADDR_HIGH = 0x1000c;
const ARM_WRAPPER = 0x18103000, SOCSRAM_WRAPPER = 0x18104000;
export const JOIN = { ACTIVE: 1, FAIL: 2, NONET: 3, BADAUTH: 4, AUTH: 0x200, LINK: 0x400, KEYED: 0x800, ALL: 0xe01 };

export interface HostEvent { type: number; status: number; reason: number; flags: number; itf: number }

export class DriverStub {
  window = 0;
  txSeq = 0;
  credit = 1;
  ioctlId = 0;
  joinState = 0;
  linkUp = false;
  events: HostEvent[] = [];
  ethernet: Uint8Array[] = [];
  private hadPacket = false;

  constructor(readonly host: GspiHost) {}

  setWindow(addr: number): void {
    addr = (addr & ~0x7fff) >>> 0;
    if (addr === this.window) return;
    if ((addr & 0xff000000) !== (this.window & 0xff000000)) this.host.writeReg(BACKPLANE, ADDR_HIGH, 1, addr >>> 24);
    if ((addr & 0xff0000) !== (this.window & 0xff0000)) this.host.writeReg(BACKPLANE, ADDR_MID, 1, (addr >>> 16) & 0xff);
    if ((addr & 0xff00) !== (this.window & 0xff00)) this.host.writeReg(BACKPLANE, ADDR_LOW, 1, (addr >>> 8) & 0xff);
    this.window = addr;
  }

  readBackplane(addr: number, size: number): number {
    this.setWindow(addr);
    const v = this.host.readReg(BACKPLANE, (addr & 0x7fff) | 0x8000, size);
    this.setWindow(0x18000000);
    return v;
  }

  writeBackplane(addr: number, size: number, val: number): void {
    this.setWindow(addr);
    this.host.writeReg(BACKPLANE, (addr & 0x7fff) | 0x8000, size, val);
    this.setWindow(0x18000000);
  }

  download(addr: number, data: Uint8Array): void {
    for (let off = 0; off < data.length; off += 64) {
      this.setWindow(addr + off);
      this.host.writeBytes(BACKPLANE, ((addr + off) & 0x7fff) | 0x8000, data.subarray(off, off + 64));
    }
  }

  resetCore(wrapper: number): void {
    this.readBackplane(wrapper + 0x800, 1);
    this.writeBackplane(wrapper + 0x408, 1, 0x3);
    this.writeBackplane(wrapper + 0x800, 1, 0);
    this.writeBackplane(wrapper + 0x408, 1, 0x1);
  }

  /** cyw43_ll_bus_init up to F2 ready; returns where it stopped, as the driver's warnings do. */
  busInit(firmware: Uint8Array, nvram: Uint8Array): string {
    this.host.wlOn(false);
    this.host.wlOn(true);
    if (this.host.readRegU32Swap(BUS, 0x14) !== 0xfeedbead) return 'Failed to read test pattern';
    this.host.writeRegU32Swap(BUS, 0x00, 0x01 | 0x02 | 0x10 | 0x80 | (4 << 8) | (2 << 16) | 0x20);
    this.host.readReg(BUS, 0x00, 4);
    this.host.writeReg(BUS, 0x1d, 1, 16);
    this.host.writeReg(BUS, SPI_INTERRUPT_REGISTER, 1, 0x99);
    this.host.writeReg(BUS, 0x06, 2, 0x00be);
    this.host.writeReg(BACKPLANE, CHIP_CLOCK_CSR, 1, 0x08);
    if (!(this.host.readReg(BACKPLANE, CHIP_CLOCK_CSR, 1) & 0x40)) return 'timeout waiting for ALP to be set';
    this.host.writeReg(BACKPLANE, CHIP_CLOCK_CSR, 1, 0);
    if (!(this.readBackplane(ARM_WRAPPER + 0x800, 1) & 1)) return 'core not in reset';
    this.resetCore(SOCSRAM_WRAPPER);
    this.download(0, firmware);
    const nvLen = (nvram.length + 3) & ~3;
    const nv = new Uint8Array(nvLen);
    nv.set(nvram);
    this.download(512 * 1024 - 4 - nvLen, nv);
    this.writeBackplane(512 * 1024 - 4, 4, (((~(nvLen / 4) & 0xffff) << 16) | (nvLen / 4)) >>> 0);
    this.resetCore(ARM_WRAPPER);
    if (!(this.host.readReg(BACKPLANE, CHIP_CLOCK_CSR, 1) & 0x80)) return 'HT not ready';
    if (!(this.host.readReg(BUS, SPI_STATUS_REGISTER, 4) & 0x20)) return 'F2 not ready';
    this.host.writeReg(BACKPLANE, SLEEP_CSR, 1, 1);
    if ((this.host.readReg(BACKPLANE, SLEEP_CSR, 1) & 3) !== 3) return 'cyw43_kso_set(1): failed';
    return 'ok';
  }

  sendFrame(channel: number, body: Uint8Array): void {
    if (this.credit === this.txSeq) throw new Error('stalled: no bus data credit');
    const hdr = channel === 2 ? 14 : 12;
    const size = hdr + body.length;
    const buf = new Uint8Array((size + 3) & ~3);
    buf.set([size & 0xff, size >> 8, ~size & 0xff, (~size >> 8) & 0xff, this.txSeq & 0xff, channel, 0, hdr]);
    buf.set(body, hdr);
    this.txSeq = (this.txSeq + 1) & 0xff;
    if (!(this.host.readReg(BUS, SPI_STATUS_REGISTER, 4) & 0x20)) throw new Error('F2 not ready');
    this.host.writeBytes(WLAN, 0, buf.subarray(0, size));
  }

  /** cyw43_do_ioctl: send, then poll until the answer with the same id (events handled meanwhile). */
  ioctl(set: boolean, cmd: number, payload: Uint8Array, outLen = payload.length): Uint8Array {
    this.ioctlId = (this.ioctlId + 1) & 0xffff;
    const body = new Uint8Array(16 + payload.length);
    const dv = new DataView(body.buffer);
    dv.setUint32(0, cmd, true);
    dv.setUint32(4, outLen, true);
    dv.setUint32(8, ((this.ioctlId << 16) | (set ? 2 : 0)) >>> 0, true);
    body.set(payload, 16);
    this.sendFrame(0, body);
    for (let i = 0; i < 50; i++) {
      const got = this.pollDevice();
      if (got?.channel === 0 && got.id === this.ioctlId) return got.payload;
    }
    throw new Error(`ioctl ${cmd}: timeout`);
  }

  iovar(set: boolean, name: string, value: Uint8Array, outLen?: number): Uint8Array {
    const payload = new Uint8Array(name.length + 1 + value.length);
    payload.set(new TextEncoder().encode(name));
    payload.set(value, name.length + 1);
    return this.ioctl(set, set ? 263 : 262, payload, outLen ?? payload.length);
  }

  /** cyw43_ll_process_packets: everything pending. */
  processPackets(): void {
    for (let i = 0; i < 100 && this.pollDevice() !== undefined; i++);
  }

  pollDevice(): { channel: number; id: number; payload: Uint8Array } | undefined {
    if (!this.hadPacket) {
      if (!this.host.irq) return undefined;
      const spiInt = this.host.readReg(BUS, SPI_INTERRUPT_REGISTER, 2) & 0xffff;
      if (spiInt) this.host.writeReg(BUS, SPI_INTERRUPT_REGISTER, 2, spiInt);
      if (!(spiInt & 0x20)) return undefined;
    }
    const status = this.host.readReg(BUS, SPI_STATUS_REGISTER, 4);
    if (!(status & 0x100)) {
      this.hadPacket = false;
      return undefined;
    }
    const buf = this.host.readBytes(WLAN, 0, (status >>> 9) & 0x7ff);
    this.hadPacket = true;
    return this.processRx(buf);
  }

  private processRx(buf: Uint8Array): { channel: number; id: number; payload: Uint8Array } | undefined {
    const size = buf[0] | (buf[1] << 8);
    if ((size ^ (buf[2] | (buf[3] << 8))) !== 0xffff) throw new Error('hdr mismatch');
    const credit = (buf[9] - this.credit) & 0xff;
    if (credit <= 20) this.credit = buf[9];
    const channel = buf[5] & 0xf, hdr = buf[7];
    if (channel === 0) return { channel, id: le32(buf, hdr + 8) >>> 16, payload: buf.subarray(hdr + 16, size) };
    const payload = buf.subarray(hdr + 4 + buf[hdr + 3] * 4, size);
    if (channel === 2) this.ethernet.push(Uint8Array.from(payload));
    else if (channel === 1) this.asyncEvent(payload);
    return { channel, id: 0, payload };
  }

  private asyncEvent(p: Uint8Array): void {
    if (p[12] !== 0x88 || p[13] !== 0x6c || p[19] !== 0 || p[20] !== 0x10 || p[21] !== 0x18) throw new Error('not an event');
    const dv = new DataView(p.buffer, p.byteOffset + 24);
    const ev = { flags: dv.getUint16(2), type: dv.getUint32(4), status: dv.getUint32(8), reason: dv.getUint32(12), itf: p[24 + 46] };
    this.events.push(ev);
    if (ev.type === 0 && ev.status === 3) this.joinState = JOIN.NONET;
    else if (ev.type === 0 && ev.status !== 0) this.joinState = JOIN.FAIL;
    else if (ev.type === 3 && ev.status === 0) this.joinState |= JOIN.AUTH;
    else if (ev.type === 16 && ev.status === 0 && ev.flags & 1) this.joinState |= JOIN.LINK;
    else if (ev.type === 16 && ev.status === 0) this.linkUp = false;
    else if (ev.type === 46 && ev.status === 6) this.joinState |= JOIN.KEYED;
    else if (ev.type === 46) this.joinState = JOIN.BADAUTH;
    if (this.joinState === JOIN.ALL) {
      this.joinState = JOIN.ACTIVE;
      this.linkUp = true;
    }
  }
}
