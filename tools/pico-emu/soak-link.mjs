// The gate of a soak (soak.mjs): the emulated board runs ahead of real time only while nothing outside
// it waits on it, that is while no client of the schedule is busy and no frame has crossed the link
// either way for GRACE_MS of real time (a Linux peer delays its ACK 40 ms at most). It also counts the
// DHCP messages on the link, both ways.
const GRACE_NS = 50_000_000n;
const DHCP_SERVER_PORT = 67;

/** The UDP port at byte `at` of an IPv4 Ethernet frame (34: source, 36: destination), or -1. */
const udpPort = (f, at) => (f.length > 42 && f[12] === 8 && f[13] === 0 && f[23] === 17 ? (f[at] << 8) | f[at + 1] : -1);

export class LinkGate {
  constructor(chip) {
    this.busy = 0;
    this.lastFrame = 0n;
    this.dhcp = { fromBoard: 0, toBoard: 0 };
    const receive = chip.receive.bind(chip);
    chip.receive = (frame) => {
      this.touch();
      if (udpPort(frame, 34) === DHCP_SERVER_PORT) this.dhcp.toBoard++;
      return receive(frame);
    };
    const send = chip.onEthernet;
    chip.onEthernet = (frame) => {
      this.touch();
      if (udpPort(frame, 36) === DHCP_SERVER_PORT) this.dhcp.fromBoard++;
      send(frame);
    };
    this.runAhead = () => this.busy === 0 && process.hrtime.bigint() - this.lastFrame > GRACE_NS;
  }

  touch() {
    this.lastFrame = process.hrtime.bigint();
  }

  /** Runs `fn` (async) with the board held to real time. */
  async job(fn) {
    this.busy++;
    try {
      return await fn();
    } finally {
      this.busy--;
      this.touch();
    }
  }

  /** While a client waits on nothing (an open event stream), the board may run ahead: release() then hold() again. */
  release() {
    this.busy--;
  }

  hold() {
    this.busy++;
  }
}
