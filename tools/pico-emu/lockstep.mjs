// Runs an rp2040js 1.4.1 Simulator with its PIO blocks stepped in lockstep with the CPU, one PIO
// cycle per CPU cycle. rp2040js steps an enabled PIO from a setTimeout loop of its own (RPPIO.run:
// 1,000 steps per turn of the event loop, while Simulator.execute runs 1,000,000 instructions per
// turn), so a gSPI transfer to the Wi-Fi chip would take milliseconds of emulated time instead of
// microseconds, and the cyw43-driver's 225 KB firmware download minutes. (rp2040js does not model
// the PIO clock divider either: a state machine runs at the system clock here.) While the core sleeps
// (WFE, WFI) the clock moves on to its next alarm, never ahead of real time, unless the caller's
// runAhead() says nothing outside the board is waiting on it (soak.mjs: the link quiet, no client
// busy): then it moves to the next alarm at once, and an idle emulated day costs only the cycles the
// board runs.
const CYCLE_NANOS = 1e9 / 125e6; // rp2040js's fixed 125 MHz
// Instructions per turn of the event loop (Simulator.execute runs 1,000,000): the frames of a client
// reach the chip model only between turns, so a turn is what the link may add to a round trip
// (100,000 cycles: 0.8 ms of emulated time), where a Wi-Fi chip interrupts the core at once.
const TURN = 100_000;

/** How far the clock of a sleeping core may move: as far as real time has since it fell asleep. */
function sleepClock(clock) {
  let from = -1; // the emulated nanoseconds at which the core fell asleep; -1: it is awake
  let fromReal = 0n;
  return {
    /** Emulated nanoseconds the sleeping core may still pass before it is ahead of real time. */
    room() {
      const real = process.hrtime.bigint();
      if (from < 0) {
        from = clock.nanos;
        fromReal = real;
      }
      return Number(real - fromReal) - (clock.nanos - from);
    },
    awake() {
      from = -1;
    },
  };
}

/** A chip's two PIO blocks, stepped here rather than by rp2040js's own loop. */
export function pioBlocks(rp2040) {
  const pios = rp2040.pio;
  // A state machine that waits (a stall on an empty or full FIFO, a WAIT on a pin or IRQ) is woken
  // by the write, the pin or the IRQ itself (StateMachine.checkWait): stepping it meanwhile does
  // nothing. The driver leaves its machine enabled and stalled between transfers.
  const busy = (pio) => !pio.stopped && pio.machines.some((m) => m.enabled && !m.waiting);
  // Idle blocks start to run only by a write to their registers (enable, restart, a FIFO, an IRQ) or
  // a machine's checkWait (a FIFO read, a pin, an IRQ): rp2040js 1.4.1 sets `stopped` false, `enabled`
  // true and a machine's `waiting` false nowhere else (pio.js; restart() is called by the CTRL write).
  // Those calls mark the blocks, and only marked blocks are asked after an instruction whether they
  // run (asking after every one cost a run 6 % more CPU). tests/pico-emu-lockstep.test.ts.
  let marked = true;
  for (const pio of pios) {
    pio.run = () => {}; // stepped below instead
    const write = pio.writeUint32;
    pio.writeUint32 = function (offset, value) { marked = true; return write.call(this, offset, value); };
    for (const m of pio.machines) {
      const checkWait = m.checkWait;
      m.checkWait = function () { marked = true; return checkWait.call(this); };
    }
  }
  return {
    active() {
      if (!marked) return false;
      if (busy(pios[0]) || busy(pios[1])) return true;
      marked = false;
      return false;
    },
    step(cycles) {
      for (const pio of pios) {
        if (pio.stopped) continue;
        for (let c = 0; c < cycles; c++) pio.step();
      }
    },
  };
}

/** @param {{runAhead?: () => boolean}} options runAhead: may a sleeping core's clock go ahead of real time now? */
export function runLockstep(sim, { runAhead = () => false } = {}) {
  const { clock } = sim;
  let rp2040, pio;
  // The chip sim.rp2040 holds; a watchdog reset (chip-reset.mjs) puts a new one there.
  const adopt = () => {
    rp2040 = sim.rp2040;
    pio = pioBlocks(rp2040);
  };
  adopt();
  const sleep = sleepClock(clock);
  let timer = null;
  const turn = () => {
    timer = null;
    let asleep = false;
    for (let i = 0; i < TURN && !sim.stopped; i++) {
      if (sim.rp2040 !== rp2040) adopt();
      if (rp2040.core.waiting) {
        if (pio.active()) {
          clock.tick(CYCLE_NANOS);
          pio.step(1);
        } else if (clock.nanosToNextAlarm > 0 && runAhead()) {
          sleep.awake(); // real time is not the limit: from here the clock counts afresh
          const nanos = clock.nanosToNextAlarm;
          clock.tick(nanos);
          i += nanos / CYCLE_NANOS;
        } else {
          // Asleep until an interrupt: on to the next alarm, but no faster than real time, so that
          // the frames of a client (which land between turns) and its own delays reach the board
          // when they would on a real link. An emulated board runs slower than real time when busy.
          const room = sleep.room();
          if (room <= 0) {
            asleep = true;
            break;
          }
          const nanos = Math.min(clock.nanosToNextAlarm || room, room);
          clock.tick(nanos);
          i += nanos / CYCLE_NANOS;
        }
      } else {
        sleep.awake();
        const cycles = rp2040.core.executeInstruction();
        clock.tick(cycles * CYCLE_NANOS);
        if (pio.active()) pio.step(cycles);
      }
    }
    // A sleeping core waits for real time (a millisecond); a running one goes on once the event loop
    // has taken in what arrived.
    if (!sim.stopped) timer = asleep ? setTimeout(turn, 1) : setImmediate(turn);
  };
  sim.stopped = false;
  turn();
  return () => {
    sim.stopped = true;
    if (timer) {
      clearTimeout(timer);
      clearImmediate(timer);
    }
  };
}
