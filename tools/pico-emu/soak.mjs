// A lab's day, repeated for weeks, on the emulated Pico W in emulated time (run.mjs --soak DAYS, inside
// netns.sh with PICO_EMU_DNS=1: make pico-emu-soak). The board runs ahead of real time while nothing
// outside it waits on it (soak-link.mjs), so an idle hour costs only the cycles the board runs; each
// client starts at its emulated moment (an alarm of the board's clock) and talks to the board over the
// real TAP link (soak-clients.mjs), the board paced by real time while it does. Nothing of this is in
// the firmware.
//
// The day (emulated time since power-on, repeated): a Prometheus-style scrape of /metrics every minute;
// three values read every 10 s over one keep-alive connection 09:00-10:00 and 15:00-16:00; a PUT every
// hour (:30) and `system/0/save` at 12:00; the console and its event stream for 5 minutes at 11:00 and
// 17:00; a DNS-SD browse by python-zeroconf every hour (:15); the access point away for a minute at
// 03:00; hostile clients at 04:00. An SNTP server on the link (soak-sntp.mjs: the module's
// pool.ntp.org, which netns.sh's dnsmasq resolves to it) answers the board's emulated time from
// EPOCH, stepped +1 s every seventh day. dnsmasq leases for an hour. run.mjs --soak-traffic runs only the
// parts it names (TRAFFIC below: a day of scrapes alone, say); the whole day when not given.
//
// Every emulated hour (:59:45) one record (a `soak: {…}` line, and a line of --soak-records FILE): what
// soak-board.mjs reads of the board, its uptime and clock from an answer, its restarts from the last
// scrape, the DHCP messages and SNTP requests seen, and the clients' counts. At the end, or when the run
// is stopped before it, a summary (FILE.summary.json). tools/pico-emu/soak-report.mjs judges and plots.
import fs from 'node:fs';
import { LinkGate } from './soak-link.mjs';
import { SntpServer } from './soak-sntp.mjs';
import { LabClients } from './soak-clients.mjs';
import { BoardWatch } from './soak-board.mjs';

const S = 1e9; // emulated nanoseconds in a second
const HOUR = 3600, DAY = 86400;
/** The SNTP server's time at the board's power-on (Unix seconds): 2026-03-01T00:00:00Z. */
const EPOCH = 1772323200;

/** The parts of the lab's day, by the names --soak-traffic takes. */
export const TRAFFIC = Object.freeze(['scrape', 'read', 'put', 'save', 'console', 'dns-sd', 'away', 'hostile', 'sntp-step']);

/** The lab's day on `clients`, from the emulated clock's alarms: the parts named in `traffic`. */
function schedule({ every, at, now, clients: c, sntp, accessPoint, stamp, traffic }) {
  const hourOf = (t) => Math.floor((t % DAY) / HOUR);
  const part = (name, period, first, fn) => { if (traffic.has(name)) every(period, first, fn); };
  part('scrape', 60, 60, () => c.run('scrape', () => c.scrape()));
  part('read', 10, 10, (t) => {
    if (hourOf(t) === 9 || hourOf(t) === 15) c.run('read', () => c.read());
  });
  part('put', HOUR, HOUR / 2, (t) => c.run('put', () => c.put(10 + (Math.round(t / HOUR) % 20))));
  part('save', DAY, 12 * HOUR, () => c.run('save', () => c.save()));
  part('console', DAY, 11 * HOUR, () => c.run('console', () => c.console()));
  part('console', DAY, 17 * HOUR, () => c.run('console', () => c.console()));
  part('dns-sd', HOUR, HOUR / 4, () => c.run('dns-sd', () => c.browse()));
  part('away', DAY, 3 * HOUR + 5, () => {
    c.away = true;
    accessPoint(false);
    at(now() + 60, () => accessPoint(true));
    at(now() + 75, () => { c.away = false; }); // joined again and addressed within 15 s
  });
  part('hostile', DAY, 4 * HOUR, () => c.run('hostile', () => c.hostile()));
  part('sntp-step', 7 * DAY, 7 * DAY - 30, () => {
    sntp.stepBy(1);
    console.log(`${stamp()} soak: the SNTP server steps by +1 s (${sntp.stepped} s in all)`);
  });
}

/** One hourly record. */
async function record({ board, clients, sntp, gate, now, t0, timerMs }) {
  const memory = board.hour();
  const answer = await clients.request('GET', '/api/v1/device/system/0/uptime');
  const server = sntp.seconds();
  const clock = { uptime: null, clockOffsetMs: null, dateOffset: null };
  if (answer.status === 200) {
    const j = JSON.parse(answer.body);
    clock.uptime = j.response.value; // minutes
    clock.clockOffsetMs = Date.parse(j.timestamp) - server * 1000;
    clock.dateOffset = Date.parse(answer.headers.date) / 1000 - Math.floor(server);
  }
  const restarts = {};
  for (const r of (clients.lastScrape ?? '').matchAll(/^brainstem_restarts_total\{[^}]*cause="(\w+)"\} (\d+)/gm)) restarts[r[1]] = Number(r[2]);
  return {
    hour: Math.round(now() / HOUR), emulated: Math.round(now()), real: Math.round((Date.now() - t0) / 1000), chipMs: timerMs + Math.round(now() * 1000),
    ...memory, ...clock, synced: board.lastSyncAt > sntp.lastStepAt, serverStepped: sntp.stepped,
    dhcp: { ...gate.dhcp }, sntpAsked: sntp.asked, restarts, counts: structuredClone(clients.counts),
  };
}

/** timerMs: the chip's millisecond clock at power-on (run.mjs --timer-ms), which the records' chipMs carries on;
 * traffic: the parts of the day to run (TRAFFIC's names; all of them when not given). */
export function soak({ sim, chip, image, days, recordsFile, accessPoint, onLine, stop, stamp, timerMs = 0, traffic = TRAFFIC }) {
  const t0 = Date.now();
  const now = () => sim.clock.nanos / S; // emulated seconds since power-on
  const at = (seconds, fn) => sim.clock.createAlarm(fn).schedule(Math.max(0, seconds * S - sim.clock.nanos));
  const every = (period, first, fn) => {
    const go = (t) => at(t, () => { fn(t); go(t + period); });
    go(first);
  };
  const gate = new LinkGate(chip);
  const sntp = new SntpServer(now, EPOCH);
  const clients = new LabClients(gate, at, now);
  const board = new BoardWatch({ sim, image, onLine, now });
  every(1, 1, () => board.sample());
  schedule({ every, at, now, clients, sntp, accessPoint, stamp, traffic: new Set(traffic) });

  const records = recordsFile ? fs.openSync(recordsFile, 'w') : null;
  every(HOUR, HOUR - 15, () => gate.job(async () => {
    const line = JSON.stringify(await record({ board, clients, sntp, gate, now, t0, timerMs }));
    console.log(`${stamp()} soak: ${line}`);
    if (records !== null) fs.writeSync(records, `${line}\n`);
  }));
  every(DAY, DAY, (t) => console.log(`${stamp()} soak: day ${t / DAY} done after ${((Date.now() - t0) / 1000).toFixed(0)} s real`));

  let summarized = false;
  const summarize = (why) => {
    if (summarized) return;
    summarized = true;
    const summary = { days: Math.min(days, Math.floor((now() / DAY) * 100) / 100), asked: days, ended: why, timerMs, traffic,
      real: Math.round((Date.now() - t0) / 1000), ratio: Math.round(now() / ((Date.now() - t0) / 1000)),
      boots: board.boots, syncs: board.syncs.length, syncSteps: board.syncs.filter((s) => Math.abs(s.stepMs) >= 500),
      saves: clients.saves, erases: board.erases, failures: clients.failures, counts: clients.counts };
    console.log(`${stamp()} soak: summary ${JSON.stringify(summary)}`);
    if (recordsFile) fs.writeFileSync(`${recordsFile.replace(/\.jsonl$/, '')}.summary.json`, `${JSON.stringify(summary, null, 1)}\n`);
  };
  at(days * DAY + 30, () => {
    summarize('soak done');
    stop('soak done');
  });
  return { runAhead: gate.runAhead, summarize };
}
