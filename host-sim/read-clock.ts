// The simulator's wall clock, read once per socket read. Reading the clock is not free: on the 2-core
// VM this project is developed on, Date.now() costs about 300 ns in a loop of a million calls (our own
// code spends about 2 µs on a request), and one request read it three times (the connection's
// activity time, the module clock for the answer's timestamp, the physics step). While a socket's bytes are being
// handled, every reader gets the instant they arrived: one reading per read, and the requests of a
// pipelined read share their timestamp, as they arrived together.

export class ReadClock {
  /** The instant of the read under way; NaN when none is (then `now` reads the clock). */
  private held = NaN;

  /** The wall clock (ms since the epoch): the held instant during a read, else a fresh reading. */
  readonly now = (): number => (this.held === this.held ? this.held : Date.now());

  /** A socket's bytes are about to be handled: read the clock once for all of them. */
  hold(): void {
    this.held = Date.now();
  }

  /** They have been: later readers (timers, drains) read the clock again. */
  release(): void {
    this.held = NaN;
  }
}

/** The one wall clock of the simulator process: the server holds it, the modules and connections read it. */
export const wallClock = new ReadClock();
