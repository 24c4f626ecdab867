// The USB ports of the module, seen by three entities: port (one instance per port), usb (channels of
// one hub) and usbsystem (all ports at once). All three read and write this one model, so an enable
// through any of them shows in the others. Each port has a simulated device (or none) whose load,
// link speed and e-marked cable drive the measurements. The words it packs and the line groups it
// switches are port-words.ts.

import { ApiError, aErrRange } from '../kit/errors';
import { ERR_PORT_OVERCURRENT } from '../kit/error-word';
import type { SimContext } from './context';
import type { PortDevice, UsbSpeed } from './profile';
import type { RegisterFile } from './registers';
import { checkIndex } from '../kit/value-guards';
import { noise, slot } from './values';
import {
  DATAROLE_DISABLED, DATAROLE_DOWNSTREAM, DATAROLE_UPSTREAM, ERROR_OVERCURRENT, LINES, MODE_BITS, NO_PORT,
  STATE_ATTACHED, STATE_FLIPPED, STATE_HS_ENABLED, STATE_OVERCURRENT, STATE_SS_ENABLED, STATE_UPSTREAM,
  STATE_USB2_LINK, STATE_USB3_LINK, STATE_VBUS, STATE_VCONN, type LineGroup,
} from './port-words';

const MAX_CURRENT_LIMIT = 5_000_000; // uA
const CURRENT_LIMIT_STEP = 10_000; // uA: the limit DAC's resolution
const CABLE_OHM = 0.05; // Vbus droop through switch and cable
const RP_MICROAMP = [0, 80, 180, 330]; // Type-C Rp current sources: off, default, 1.5 A, 3 A
const RD_OHM = 5100;
const VCONN_UV = 5_000_000;
const SPEED_RANK: { readonly [S in UsbSpeed]: number } = { low: 1, full: 2, high: 3, super: 4 };

interface Energy { vbus: number; vconn: number; cc1: number; cc2: number } // mWh

export class PortModel {
  readonly count: number;
  readonly regs: RegisterFile;
  readonly sys: RegisterFile;
  private devices: (PortDevice | null)[];
  private tripped: boolean[] = [];
  private errors: number[] = [];
  private energy: Energy[] = [];
  private last = 0;

  constructor(private readonly ctx: SimContext) {
    this.devices = ctx.profile.portDevices.slice();
    const n = (this.count = this.devices.length);
    this.regs = ctx.registers('port', {
      powerenabled: true, datahs1enabled: true, datahs2enabled: true, datass1enabled: true, datass2enabled: true,
      vconn1enabled: false, vconn2enabled: false, cc1enabled: true, cc2enabled: true,
      powermode: 6, name: (i) => `Port ${i}`, voltagesetpoint: 5_000_000,
      currentlimit: 3_000_000, currentlimitmode: 0, powerlimit: 15_000, powerlimitmode: 0, cccurrentlimit: 1,
      datahsroutingbehavior: 0, datassroutingbehavior: 0, hsboost: 0,
      // kept for the usb entity's channel operations (and in the portmode word)
      connectmode: 1, sbuenable: false, cableflip: false, altmode: 0,
    }, [], n);
    const all = (): number[] => { const l: number[] = []; for (let i = 0; i < n; i++) l.push(i); return l; };
    this.sys = ctx.registers('usbsystem', {
      upstreamport: NO_PORT, enumerationdelay: 0, powerbehavior: 0, powerbehaviorconfig: all, databehavior: 0,
      databehaviorconfig: all, selectormode: 0, upstreamhsport: NO_PORT, upstreamssport: NO_PORT, override: 0,
      datahsmaxdatarate: 3, datassmaxdatarate: 2,
    }, [], 1);
    this.powerUp();
    ctx.onReboot(() => this.powerUp());
    ctx.onAdvance((t) => this.advance(t));
  }

  private powerUp(): void {
    for (let i = 0; i < this.count; i++) {
      this.tripped[i] = false;
      this.errors[i] = 0;
      this.energy[i] = { vbus: 0, vconn: 0, cc1: 0, cc2: 0 };
    }
    this.last = this.ctx.wall();
  }

  /** Integrates energy since the last call and trips ports drawing more than their limit. */
  private advance(t: number): void {
    const dt = t - this.last;
    this.last = t;
    for (let i = 0; i < this.count; i++) {
      if (dt > 0) {
        const h = dt / 3_600_000;
        const e = this.energy[i];
        e.vbus += ((this.vbusVoltage(i) * this.vbusCurrent(i)) / 1e9) * h;
        const pv = ((this.vconnVoltage(i) * this.vconnCurrent(i)) / 1e9) * h;
        e.vconn += pv;
        if (this.vconnSide(i) === 1) e.cc1 += pv;
        else e.cc2 += pv;
      }
      const d = this.devices[i];
      if (!this.tripped[i] && this.on(i, 'powerenabled') && d && d.loadMicroamp > this.regs.num(i, 'currentlimit')) {
        this.tripped[i] = true;
        this.errors[i] |= ERROR_OVERCURRENT;
        this.ctx.flagError(ERR_PORT_OVERCURRENT, `port ${i} overcurrent`);
      }
    }
  }

  check(port: number): number {
    return checkIndex('channel', port, this.count);
  }

  device(i: number): PortDevice | null {
    return this.devices[i];
  }

  setDevice(i: number, d: PortDevice | null): void {
    this.ctx.touch();
    this.devices[this.check(i)] = d;
  }

  on(i: number, line: string): boolean {
    const v = this.regs.read(i, line);
    return v === true || (typeof v === 'number' && v !== 0);
  }

  any(i: number, group: LineGroup): boolean {
    return LINES[group].some((l) => this.on(i, l));
  }

  /** Whole port: power and at least one data pair. */
  portEnabled(i: number): boolean {
    return this.on(i, 'powerenabled') && this.any(i, 'data');
  }

  setLines(i: number, group: LineGroup, on: boolean): void {
    for (const l of LINES[group]) this.setLine(i, l, on);
  }

  setLine(i: number, line: string, on: boolean): void {
    this.regs.write(i, line, [], line === 'connectmode' ? (on ? 1 : 0) : on);
    // Switching Vbus off re-arms the overcurrent switch (the error stays latched until cleared).
    if (line === 'powerenabled' && !on) this.tripped[i] = false;
  }

  vbusOn(i: number): boolean {
    return this.on(i, 'powerenabled') && !this.tripped[i];
  }

  vbusCurrent(i: number): number {
    const d = this.devices[i];
    if (!this.vbusOn(i) || !d) return 0;
    return Math.round(d.loadMicroamp * (1 + 0.004 * noise(this.ctx.serial, 400 + i, slot(this.ctx.wall()))));
  }

  vbusVoltage(i: number): number {
    const n = noise(this.ctx.serial, 500 + i, slot(this.ctx.wall()));
    if (!this.vbusOn(i)) return Math.round(1500 * Math.abs(n)); // leakage: a few mV at most
    return Math.round(this.regs.num(i, 'voltagesetpoint') - this.vbusCurrent(i) * CABLE_OHM + 4000 * n);
  }

  /** CC side the partner signals on (1 or 2); Vconn goes out on the other one. */
  activeSide(i: number): number {
    return this.on(i, 'cableflip') ? 2 : 1;
  }

  vconnSide(i: number): number {
    return 3 - this.activeSide(i);
  }

  vconnVoltage(i: number): number {
    if (!this.any(i, 'vconn')) return 0;
    return Math.round(VCONN_UV + 3000 * noise(this.ctx.serial, 600 + i, slot(this.ctx.wall())));
  }

  vconnCurrent(i: number): number {
    const d = this.devices[i];
    if (!d || !this.on(i, `vconn${this.vconnSide(i)}enabled`)) return 0;
    return d.vconnMicroamp;
  }

  ccCurrent(i: number, side: number): number {
    const d = this.devices[i];
    if (side === this.vconnSide(i) && this.on(i, `vconn${side}enabled`)) return this.vconnCurrent(i);
    if (d && side === this.activeSide(i) && this.on(i, `cc${side}enabled`)) return RP_MICROAMP[this.regs.num(i, 'cccurrentlimit') & 3];
    return 0;
  }

  ccVoltage(i: number, side: number): number {
    if (this.on(i, `vconn${side}enabled`)) return this.vconnVoltage(i);
    if (side === this.activeSide(i)) return this.ccCurrent(i, side) * RD_OHM; // uA x ohm = uV
    return 0;
  }

  /**
   * SBU carries an alternate mode's AUX pair (DisplayPort: AUX+ biased low, AUX- high) when enabled,
   * in an alt mode, with a partner.
   */
  sbuVoltage(i: number, line: 1 | 2): number {
    if (!(this.on(i, 'sbuenable') && this.regs.num(i, 'altmode') > 0 && this.devices[i] !== null)) return 0;
    return line === 1 ? 600_000 : 2_700_000;
  }

  /** high byte remote (0 open, 1 Rd, 2 Ra), low byte local (0 open, 1..3 Rp level, 4 Vconn). */
  ccState(i: number, side: number): number {
    const d = this.devices[i];
    let local = 0;
    if (this.on(i, `vconn${side}enabled`)) local = 4;
    else if (this.on(i, `cc${side}enabled`)) local = this.regs.num(i, 'cccurrentlimit') & 3;
    let remote = 0;
    if (d && side === this.activeSide(i)) remote = 1;
    else if (d && d.vconnMicroamp > 0) remote = 2;
    return (remote << 8) | local;
  }

  /** Speed of the link with the attached device, or null. usbsystem caps it. */
  link(i: number): UsbSpeed | null {
    const d = this.devices[i];
    if (!d || !this.vbusOn(i)) return null;
    if (d.speed === 'super' && this.any(i, 'datass') && this.sys.num(0, 'datassmaxdatarate') > 0) return 'super';
    const hsMax = this.sys.num(0, 'datahsmaxdatarate');
    if (!this.any(i, 'datahs') || hsMax === 0) return null;
    const rank = Math.min(SPEED_RANK[d.speed], 3, hsMax);
    return rank === 1 ? 'low' : rank === 2 ? 'full' : 'high';
  }

  dataRole(i: number): number {
    if (!this.any(i, 'data')) return DATAROLE_DISABLED;
    return this.sys.num(0, 'upstreamport') === i ? DATAROLE_UPSTREAM : DATAROLE_DOWNSTREAM;
  }

  portState(i: number): number {
    const link = this.link(i);
    let s = 0;
    if (this.vbusOn(i)) s |= STATE_VBUS;
    if (this.any(i, 'datahs')) s |= STATE_HS_ENABLED;
    if (this.any(i, 'datass')) s |= STATE_SS_ENABLED;
    if (this.devices[i]) s |= STATE_ATTACHED;
    if (link && link !== 'super') s |= STATE_USB2_LINK;
    if (link === 'super') s |= STATE_USB3_LINK;
    if (this.vconnVoltage(i) > 0) s |= STATE_VCONN;
    if (this.tripped[i]) s |= STATE_OVERCURRENT;
    if (this.on(i, 'cableflip')) s |= STATE_FLIPPED;
    if (this.dataRole(i) === DATAROLE_UPSTREAM) s |= STATE_UPSTREAM;
    return s >>> 0;
  }

  portMode(i: number): number {
    let m = this.regs.num(i, 'powermode') & 0x0f;
    for (const [bit, reg] of MODE_BITS) if (this.on(i, reg)) m |= 1 << bit;
    return m >>> 0;
  }

  setPortMode(i: number, word: number): void {
    const pm = word & 0x0f;
    if (pm > 6) throw new ApiError(aErrRange, `port ${i} portmode 0x${word.toString(16)}: power mode ${pm} out of range 0..6`);
    this.regs.write(i, 'powermode', [], pm);
    for (const [bit, reg] of MODE_BITS) this.setLine(i, reg, (word & (1 << bit)) !== 0);
  }

  /** Latched errors; reading through port/errors (or portclearerrorstatus) clears and re-arms. */
  errorBits(i: number): number {
    return this.errors[i];
  }

  clearErrors(i: number): void {
    this.errors[i] = 0;
    this.tripped[i] = false;
  }

  /** The port current limit the hardware can do: multiples of 10 mA up to 5 A, rounded down. */
  setCurrentLimit(i: number, uA: number): void {
    const achievable = Math.min(MAX_CURRENT_LIMIT, Math.floor(uA / CURRENT_LIMIT_STEP) * CURRENT_LIMIT_STEP);
    this.regs.write(i, 'currentlimit', [], achievable);
  }

  energyOf(i: number, which: keyof Energy): number {
    return Math.floor(this.energy[i][which]);
  }

  setEnergy(i: number, which: keyof Energy, mWh: number): void {
    this.energy[i][which] = mWh;
  }

  /** Power drawn from Vbus, mW (what allocatedpower reports). */
  vbusPower(i: number): number {
    return Math.round((this.vbusVoltage(i) * this.vbusCurrent(i)) / 1e9);
  }

  /** What the port may still draw under its power limit, mW (0 with Vbus off). */
  availablePower(i: number): number {
    return this.vbusOn(i) ? Math.max(0, this.regs.num(i, 'powerlimit') - this.vbusPower(i)) : 0;
  }

  totalPower(): number {
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.vbusPower(i);
    return sum;
  }
}
