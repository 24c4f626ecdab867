// The clients of make pico-emu-figures (board-figures.mjs), in the runner's network namespace: one request
// and its answer, one request alone with the cycles it took by function (board-cycles.mjs), the same
// request one after another, and four clients at once. Each is timed at the board's Wi-Fi chip, from the
// client's SYN in to the last answer byte out (board-traffic.mjs), in emulated time and in cycles.
import http from 'node:http';

export const BOARD = '192.168.77.50';
// Real-time timeouts are long: the emulator runs at 0.01 to 0.3 of real time, with the machine's load.
export const LONG = 600000;

/** One request on a connection of its own: {status, bytes, localPort, whole} or {error}. */
export function ask({ port = 80, method = 'GET', path, body }, timeoutMs = LONG) {
  return new Promise((resolve) => {
    const headers = { 'Accept-Encoding': 'gzip' };
    if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    const req = http.request({ host: BOARD, port, method, path, agent: false, timeout: timeoutMs, headers }, (res) => {
      const localPort = res.socket.localPort;
      let bytes = 0;
      const chunks = [];
      res.on('data', (b) => { bytes += b.length; chunks.push(b); });
      res.on('end', () => {
        const length = res.headers['content-length'];
        resolve({ status: res.statusCode, bytes, localPort, whole: length === undefined || Number(length) === bytes, text: () => Buffer.concat(chunks).toString() });
      });
      res.on('error', () => resolve({ status: res.statusCode, bytes, localPort, whole: false }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(body);
  });
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Ask until the board answers: once a second of real time while it has no address (no ARP answer). */
export async function untilAnswered(req) {
  for (;;) {
    const r = await ask(req);
    if (r.status === 200) return r;
    await pause(1000);
  }
}

/** The exchange of an answer at the chip: SYN in to last byte out, ms, cycles, cycles of work. */
function timed(traffic, a) {
  const x = a.localPort && traffic.get(a.localPort);
  if (a.status === undefined || !x?.lastOut) return null;
  return { status: a.status, bytes: a.bytes, ms: x.lastOut.ms - x.syn.ms, cycles: x.lastOut.cycles - x.syn.cycles, work: x.lastOut.work - x.syn.work };
}

/** One request alone, with its cycles by function from its SYN in to its last answer byte out. */
export async function profiled({ traffic, profile }, req) {
  const FLAGS = [[0x02, 'SYN'], [0x01, 'FIN'], [0x04, 'RST'], [0x10, 'ACK']];
  traffic.onSyn = () => profile.begin();
  traffic.onAnswer = () => profile.keep();
  traffic.onFrame = (inbound, tcp) => profile.mark(`frame ${inbound ? 'in ' : 'out'} ${FLAGS.filter(([b]) => tcp.flags & b).map(([, f]) => f).join('+')} ${tcp.payload} B`);
  const a = await ask(req);
  traffic.onSyn = traffic.onAnswer = traffic.onFrame = null;
  const timeline = profile.timeline;
  const callers = profile.callers();
  const js = profile.jsFunctions();
  const jsDetails = profile.jsDetails();
  const fns = profile.end();
  return { ...timed(traffic, a), fns, timeline, callers, js, jsDetails };
}

/** `count` requests one after another. */
export async function series({ traffic }, req, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const t = timed(traffic, await ask(req));
    if (t?.status >= 200 && t.status < 300) out.push(t);
  }
  return out;
}

/** `clients` clients asking at once, `rounds` times: every exchange. */
export async function together({ traffic }, req, clients, rounds) {
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const answers = await Promise.all(Array.from({ length: clients }, () => ask(req)));
    for (const a of answers) out.push(timed(traffic, a) ?? { status: a.error ?? 'none', ms: Infinity });
  }
  return out;
}
