// The CYW43439 model (tools/pico-emu) against a driver-like stub that drives the Pico W's pins
// edge by edge with the cyw43-driver's bus transactions: no firmware image, no rp2040js.
import { strict as assert } from 'node:assert';
import { Cyw43 } from '../tools/pico-emu/cyw43';
import { attachCyw43 } from '../tools/pico-emu/rp2040-pins';
import { DriverStub, JOIN } from './pico-emu/driver-stub';
import { BUS, GspiHost } from './pico-emu/gspi-host';

const FIRMWARE = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 1) & 0xff);
const NVRAM = new TextEncoder().encode('NVRAMRev=$Rev$\0boardtype=0x0887\0macaddr=00:90:4c:c5:12:38\0\0');

interface Board { chip: Cyw43; host: GspiHost; drv: DriverStub; flush(): void; traces: string[] }

function board(mac = '28:cd:c1:00:00:01', password: string | null = 'secret'): Board {
  const pending: (() => void)[] = [];
  const traces: string[] = [];
  const chip = new Cyw43({ mac, ap: { ssid: 'lab', password: password ?? undefined }, later: (_ms, fn) => pending.push(fn), trace: (l) => traces.push(l) });
  const host = new GspiHost();
  attachCyw43(host.mcu, chip);
  const drv = new DriverStub(host);
  const flush = (): void => { while (pending.length) pending.shift()!(); };
  return { chip, host, drv, flush, traces };
}

function up(b: Board): void {
  assert.equal(b.drv.busInit(FIRMWARE, NVRAM), 'ok');
}

const u32 = (v: number): Uint8Array => Uint8Array.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24]);
const macOf = (b: Uint8Array): string => Array.from(b.subarray(0, 6), (x) => x.toString(16).padStart(2, '0')).join(':');

function join(b: Board, ssid: string, key: string | undefined): void {
  const enc = new TextEncoder();
  b.drv.ioctl(true, 134, u32(key === undefined ? 0 : 4)); // WLC_SET_WSEC
  if (key !== undefined) {
    const pmk = new Uint8Array(68);
    pmk.set([key.length, 0, 1, 0]);
    pmk.set(enc.encode(key), 4);
    b.drv.ioctl(true, 268, pmk); // WLC_SET_WSEC_PMK
  }
  b.drv.ioctl(true, 20, u32(1)); // WLC_SET_INFRA
  const s = new Uint8Array(36);
  s.set(u32(ssid.length));
  s.set(enc.encode(ssid), 4);
  b.drv.ioctl(true, 26, s); // WLC_SET_SSID
  b.drv.joinState = JOIN.ACTIVE | (key === undefined ? JOIN.KEYED : 0);
  b.flush();
  b.drv.processPackets();
}

describe('CYW43439 model: gSPI bus and backplane', () => {
  it('answers the test register in 16-bit mode and switches to 32-bit words', () => {
    const b = board();
    b.host.wlOn(true);
    assert.equal(b.host.readRegU32Swap(BUS, 0x14).toString(16), 'feedbead');
    b.host.writeRegU32Swap(BUS, 0x00, 0x000204b3);
    assert.equal(b.host.readReg(BUS, 0x00, 4).toString(16), '204b3');
    assert.equal(b.host.readReg(BUS, 0x14, 4).toString(16), 'feedbead');
  });

  it('says nothing while WL_REG_ON is low, and forgets its bus mode across a power cycle', () => {
    const b = board();
    assert.equal(b.host.readRegU32Swap(BUS, 0x14), 0);
    up(b);
    b.host.wlOn(false);
    b.host.wlOn(true);
    assert.equal(b.host.readRegU32Swap(BUS, 0x14).toString(16), 'feedbead');
    assert.equal(b.chip.ready(), false);
  });

  it('takes the firmware and NVRAM into RAM and runs them: HT clock, F2 ready', () => {
    const b = board();
    up(b);
    const bp = b.chip.bus.backplane;
    assert.deepEqual(bp.ram.subarray(0, FIRMWARE.length), FIRMWARE);
    assert.match(bp.nvram() ?? '', /boardtype=0x0887/);
    assert.ok(b.traces.includes('firmware running'));
  });

  it('never brings HT up without the NVRAM length word', () => {
    const b = board();
    b.host.wlOn(true);
    b.host.writeRegU32Swap(BUS, 0x00, 0x000204b3);
    b.host.writeReg(BUS, 0x1d, 1, 16);
    b.drv.resetCore(0x18104000);
    b.drv.download(0, FIRMWARE);
    b.drv.resetCore(0x18103000);
    assert.equal(b.host.readReg(1, 0x1000e, 1) & 0x80, 0);
    assert.equal(b.host.readReg(BUS, 0x08, 4) & 0x20, 0);
  });

  it('reads back the backplane through the window with the 16-byte response delay', () => {
    const b = board();
    up(b);
    assert.equal(b.drv.readBackplane(0x18000000, 4) & 0xffff, 43439);
    assert.equal(b.drv.readBackplane(0x100, 4), (FIRMWARE[0x100] | (FIRMWARE[0x101] << 8) | (FIRMWARE[0x102] << 16) | (FIRMWARE[0x103] << 24)) >>> 0);
  });
});

describe('CYW43439 model: SDPCM control, events and data', () => {
  it('gives its own MAC to cur_etheraddr: two boards, two MACs', () => {
    const a = board('28:cd:c1:00:00:01'), c = board('28:cd:c1:00:00:02');
    up(a);
    up(c);
    assert.equal(macOf(a.drv.iovar(false, 'cur_etheraddr', new Uint8Array(6))), '28:cd:c1:00:00:01');
    assert.equal(macOf(c.drv.iovar(false, 'cur_etheraddr', new Uint8Array(6))), '28:cd:c1:00:00:02');
  });

  it('keeps the multicast list the driver writes', () => {
    const b = board();
    up(b);
    const list = new Uint8Array(64);
    list.set(u32(1));
    list.set([0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb], 4);
    b.drv.iovar(true, 'mcast_list', list);
    const got = b.drv.iovar(false, 'mcast_list', new Uint8Array(64));
    assert.equal(got[0], 1);
    assert.equal(macOf(got.subarray(4)), '01:00:5e:00:00:fb');
  });

  it('returns what was set for plain ioctls and iovars (WLC_GET_PM after WLC_SET_PM)', () => {
    const b = board();
    up(b);
    b.drv.ioctl(true, 86, u32(2));
    assert.equal(b.drv.ioctl(false, 85, u32(0))[0], 2);
    b.drv.iovar(true, 'pm2_sleep_ret', u32(200));
    assert.equal(b.drv.iovar(false, 'pm2_sleep_ret', u32(0))[0], 200);
  });

  it('joins a WPA2 network with the right passphrase: AUTH, LINK up, SET_SSID, PSK_SUP keyed', () => {
    const b = board();
    up(b);
    b.drv.ioctl(true, 2, new Uint8Array(0)); // WLC_UP
    join(b, 'lab', 'secret');
    assert.deepEqual(b.drv.events.map((e) => e.type), [3, 7, 16, 0, 46]);
    assert.equal(b.drv.linkUp, true);
  });

  it('reports a wrong passphrase as a failed key exchange, and an unknown SSID as no network', () => {
    const b = board();
    up(b);
    b.drv.ioctl(true, 2, new Uint8Array(0));
    join(b, 'lab', 'wrong');
    assert.equal(b.drv.joinState, JOIN.BADAUTH);
    join(b, 'elsewhere', 'secret');
    assert.equal(b.drv.joinState, JOIN.NONET);
    join(b, 'lab', undefined);
    assert.equal(b.drv.joinState, JOIN.FAIL);
    assert.equal(b.drv.linkUp, false);
  });

  it('carries Ethernet frames both ways once joined, and filters what is not for it', () => {
    const b = board('28:cd:c1:00:00:01', null);
    up(b);
    b.drv.ioctl(true, 2, new Uint8Array(0));
    join(b, 'lab', undefined);
    assert.equal(b.drv.linkUp, true);
    const sent: Uint8Array[] = [];
    b.chip.onEthernet = (f) => sent.push(f);
    const frame = Uint8Array.from([...Array(6).fill(0xff), 0x28, 0xcd, 0xc1, 0, 0, 1, 0x08, 0x06, ...Array(46).fill(7)]);
    b.drv.sendFrame(2, Uint8Array.from([0x20, 0, 0, 0, ...frame]));
    assert.deepEqual(sent, [frame]);
    const toUs = Uint8Array.from([0x28, 0xcd, 0xc1, 0, 0, 1, 2, 0, 0, 0, 0, 9, 0x08, 0x00, 1, 2, 3]);
    assert.equal(b.chip.receive(toUs), true);
    assert.equal(b.chip.receive(Uint8Array.from([0x28, 0xcd, 0xc1, 0, 0, 2, ...toUs.subarray(6)])), false);
    assert.equal(b.chip.receive(Uint8Array.from([0x01, 0, 0x5e, 0, 0, 0xfb, ...toUs.subarray(6)])), false);
    assert.equal(b.host.irq, true);
    b.drv.processPackets();
    assert.deepEqual(b.drv.ethernet, [toUs]);
    assert.equal(b.host.irq, false);
  });

  it('gives the host more bus credit with a frame of no data when the host has spent it and the chip sends nothing', () => {
    const b = board('28:cd:c1:00:00:01', null);
    up(b);
    b.drv.ioctl(true, 2, new Uint8Array(0));
    join(b, 'lab', undefined);
    const sent: Uint8Array[] = [];
    b.chip.onEthernet = (f) => sent.push(f);
    const frame = Uint8Array.from([...Array(6).fill(0xff), 0x28, 0xcd, 0xc1, 0, 0, 1, 0x08, 0x06, ...Array(46).fill(7)]);
    for (let i = 0; i < 300; i++) { // past the 8-bit sequence's wrap
      b.drv.sendFrame(2, Uint8Array.from([0x20, 0, 0, 0, ...frame])); // throws when stalled with no credit
      if (b.host.irq) b.drv.processPackets();
    }
    assert.equal(sent.length, 300);
    assert.deepEqual(b.drv.ethernet, []); // the credit frames carry nothing up
  });

  it('gives a frame the credit of when the host reads it, so a host that sent meanwhile is not stalled by it', () => {
    const b = board('28:cd:c1:00:00:01', null);
    up(b);
    b.drv.ioctl(true, 2, new Uint8Array(0));
    join(b, 'lab', undefined);
    b.chip.onEthernet = () => { /* to the network */ };
    const frame = Uint8Array.from([...Array(6).fill(0xff), 0x28, 0xcd, 0xc1, 0, 0, 1, 0x08, 0x06, ...Array(46).fill(7)]);
    const toUs = Uint8Array.from([0x28, 0xcd, 0xc1, 0, 0, 1, 2, 0, 0, 0, 0, 9, 0x08, 0x00, 1, 2, 3]);
    assert.equal(b.chip.receive(toUs), true); // queued before the host spends its credit
    let sent = 0;
    try {
      for (; sent < 20; sent++) b.drv.sendFrame(2, Uint8Array.from([0x20, 0, 0, 0, ...frame]));
    } catch { /* stalled: its credit spent */ }
    assert.ok(sent > 0 && sent < 20, `${sent} frames sent before the stall`);
    b.drv.processPackets(); // the frame queued earlier, read now
    assert.deepEqual(b.drv.ethernet, [toUs]);
    b.drv.sendFrame(2, Uint8Array.from([0x20, 0, 0, 0, ...frame])); // throws when its credit was the one of the queueing
  });

  it('drops the link when the access point goes away', () => {
    const b = board('28:cd:c1:00:00:01', null);
    up(b);
    b.drv.ioctl(true, 2, new Uint8Array(0));
    join(b, 'lab', undefined);
    b.chip.setAccessPointPresent(false);
    b.flush();
    b.drv.processPackets();
    assert.equal(b.drv.linkUp, false);
    join(b, 'lab', undefined);
    assert.equal(b.drv.joinState, JOIN.NONET);
  });
});
