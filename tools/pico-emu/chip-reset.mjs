// The RP2040's watchdog reset, which rp2040js 1.4.1 leaves out: its RPWatchdog counts and calls
// onWatchdogTrigger, and nothing resets. On the chip (RP2040 datasheet 4.7: the watchdog resets what
// PSM WDSEL selects; pico-sdk's watchdog_enable selects everything but the oscillators) the core and
// every peripheral start again from their reset state, SRAM is not kept, the watchdog's REASON and
// SCRATCH registers are, and so is flash (the Preferences in it). The Wi-Fi chip loses power: its
// WL_REG_ON pin is a GPIO, low from reset until the driver raises it.
//
// A reset here is a new rp2040js RP2040 on the same simulation clock (the emulated time goes on),
// given the boot ROM, the old flash array's contents and the watchdog's registers. The old chip's
// peripherals keep alarms on the clock (timers, USB, PWM); each chip gets its alarms through a
// ChipClock, and a reset silences the old chip's, so the dead chip never runs again.

import { randomInt } from 'node:crypto';

/** The clock as one chip sees it: alarms that fire only while this chip is the running one. */
class ChipClock {
  constructor(clock) {
    this.clock = clock;
    this.alive = true;
  }

  get nanos() { return this.clock.nanos; }

  get micros() { return this.clock.micros; }

  get frequency() { return this.clock.frequency; }

  createAlarm(callback) {
    return this.clock.createAlarm(() => { if (this.alive) callback(); });
  }
}

const WATCHDOG_BASE = 0x40058; // rp2040js's peripheral map (RPWatchdog)
const VREG_AND_CHIP_RESET_BASE = 0x40064;
// regs/vreg_and_chip_reset.h: VREG at its reset value with ROK (regulator ok), BOD at its reset value,
// CHIP_RESET with HAD_POR (the last reset was a power-on)
const VREG_AND_CHIP_RESET = new Map([[0x00, 0xb1 | (1 << 12)], [0x04, 0x91], [0x08, 1 << 8]]);

/** VREG_AND_CHIP_RESET, which rp2040js leaves unimplemented (every read all ones, which pico-sdk reads
 * as a reset by the RUN pin): a chip that was powered on. Writes change nothing. */
function chipResetRegisters(rp2040js, mcu) {
  const regs = new rp2040js.BasePeripheral(mcu, 'VREG_AND_CHIP_RESET');
  regs.readUint32 = (offset) => VREG_AND_CHIP_RESET.get(offset) ?? 0;
  regs.writeUint32 = () => {};
  return regs;
}

const ROSC_BASE = 0x40060;
const ROSC_RANDOMBIT = 0x1c;

/**
 * The ring oscillator, which rp2040js leaves unimplemented (every read all ones): its RANDOMBIT
 * register reads the oscillator's jitter on the chip (RP2040 datasheet 2.17.5), a bit that differs
 * from one read to the next; pico-sdk's pico_rand seeds and stirs from it (src/rp2_common/pico_rand/
 * rand.c:220). Other registers read as before (all ones: enabled and stable).
 */
function ringOscillator(rp2040js, mcu) {
  const regs = new rp2040js.BasePeripheral(mcu, 'ROSC');
  const base = regs.readUint32.bind(regs);
  regs.readUint32 = (offset) => (offset === ROSC_RANDOMBIT ? randomInt(2) : base(offset));
  return regs;
}

const TIMER_BASE = 0x40054; // RPTimer

/**
 * The chip's TIMER counts from `ms` milliseconds instead of 0, as on a board up that long: rp2040js's
 * RPTimer reads TIMERAWL/H, TIMELR/HR and arms its alarms from `clock.nanos` alone, so a clock of its
 * own that is ahead by `ms` moves the count and keeps every alarm's delay (the rest of the chip keeps
 * the shared clock).
 */
export function startTimerAt(mcu, ms) {
  const timer = mcu.peripherals[TIMER_BASE];
  const chipClock = timer.clock;
  const ahead = ms * 1e6;
  timer.clock = {
    get nanos() { return chipClock.nanos + ahead; },
    get micros() { return chipClock.micros + ahead / 1e3; },
    get frequency() { return chipClock.frequency; },
    createAlarm: (callback) => chipClock.createAlarm(callback),
  };
}

/** The chip's RPWatchdog (rp2040js keeps it in its peripheral map only). */
export function watchdogOf(mcu) {
  return mcu.peripherals[WATCHDOG_BASE];
}

/** A chip from power-on: the boot ROM loaded and flash erased (rp2040js's reset fills it with 0xFF). */
export function newChip(rp2040js, clock, bootrom) {
  const mcu = new rp2040js.RP2040(new ChipClock(clock));
  mcu.peripherals[VREG_AND_CHIP_RESET_BASE] = chipResetRegisters(rp2040js, mcu);
  mcu.peripherals[ROSC_BASE] = ringOscillator(rp2040js, mcu);
  mcu.loadBootrom(bootrom);
  mcu.logger = new rp2040js.ConsoleLogger(rp2040js.LogLevel.Error);
  return mcu;
}

/** The chip after a watchdog reset: a new one with the old one's flash and watchdog REASON and SCRATCH. */
export function watchdogReset(rp2040js, old, bootrom) {
  old.clock.alive = false;
  const mcu = newChip(rp2040js, old.clock.clock, bootrom);
  mcu.flash.set(old.flash);
  const [oldDog, dog] = [watchdogOf(old), watchdogOf(mcu)];
  dog.reason = oldDog.reason; // TIMER (a timeout) or FORCE (watchdog_reboot's trigger)
  dog.scratchData.set(oldDog.scratchData);
  return mcu;
}
