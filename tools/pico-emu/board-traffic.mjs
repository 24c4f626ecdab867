// Watches the emulated board's TCP exchanges on one port at the Wi-Fi chip model's Ethernet frames, both
// ways, and stamps each with the emulated time and rp2040js's count of CPU cycles (core.cycles, which
// advances only while the core executes: not while it sleeps in WFI/WFE). Per client port: the SYN,
// the first frame in with request bytes, the last frame out with answer bytes, and the bytes each way.
const ETHERTYPE_IPV4 = 0x0800;
const PROTO_TCP = 6;
const SYN = 0x02;

/** {srcPort, dstPort, flags, payload} of an IPv4 TCP frame, or null. */
function tcpOf(f) {
  if (f.length < 54 || ((f[12] << 8) | f[13]) !== ETHERTYPE_IPV4 || f[23] !== PROTO_TCP) return null;
  const ihl = (f[14] & 0x0f) * 4;
  const total = (f[16] << 8) | f[17];
  const t = 14 + ihl;
  const header = (f[t + 12] >> 4) * 4;
  return { srcPort: (f[t] << 8) | f[t + 1], dstPort: (f[t + 2] << 8) | f[t + 3], flags: f[t + 13], payload: total - ihl - header };
}

export class BoardTraffic {
  /**
   * Exchanges by the client's port, on the board's `ports`; `work()` gives a count of the core's working
   * cycles to stamp too. `onSyn` and `onAnswer`, when set, are called at a SYN in and at a frame out with
   * answer bytes (the profile of one request: board-figures.mjs).
   */
  constructor(sim, work = () => 0, ports = [80]) {
    this.sim = sim;
    this.work = work;
    this.ports = ports;
    this.exchanges = new Map();
    this.onSyn = null;
    this.onAnswer = null;
    this.onFrame = null; // (inbound, {flags, payload}) for every frame on the ports

  }

  /** Wraps the chip's frames both ways (after udpLink set them up). */
  attach(chip) {
    const receive = chip.receive.bind(chip);
    chip.receive = (frame) => {
      const taken = receive(frame);
      if (taken) this.frame(frame, true);
      return taken;
    };
    const send = chip.onEthernet;
    chip.onEthernet = (frame) => {
      this.frame(frame, false);
      send(frame);
    };
  }

  stamp() {
    return { ms: this.sim.clock.micros / 1000, cycles: this.sim.rp2040.core.cycles, work: this.work() };
  }

  frame(f, inbound) {
    const tcp = tcpOf(f);
    if (!tcp) return;
    if (!this.ports.includes(inbound ? tcp.dstPort : tcp.srcPort)) return;
    const client = inbound ? tcp.srcPort : tcp.dstPort;
    let x = this.exchanges.get(client);
    if (inbound && tcp.flags & SYN && !(tcp.flags & 0x10)) {
      this.onSyn?.();
      x = { client, syn: this.stamp(), firstIn: null, lastOut: null, bytesIn: 0, bytesOut: 0 };
      this.exchanges.set(client, x);
    }
    this.onFrame?.(inbound, tcp);
    if (!x || !tcp.payload) return;
    if (inbound) {
      x.bytesIn += tcp.payload;
      if (!x.firstIn) x.firstIn = this.stamp();
    } else {
      this.onAnswer?.();
      x.bytesOut += tcp.payload;
      x.lastOut = this.stamp();
    }
  }

  /** The exchange of the client's port `client` (its latest connection from that port). */
  get(client) {
    return this.exchanges.get(client);
  }
}
