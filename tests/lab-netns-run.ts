// Run inside a network namespace of its own (tests/lab-discovery.test.ts starts it with unshare -n,
// loopback up with multicast): simulators announce their modules by real multicast DNS, the host
// server finds them, a name conflict is renamed, and announcements that lie are judged by what the
// module answers. Prints what it saw as one JSON line; the test makes the assertions.

import { Bonjour } from 'bonjour-service';
import { exchange, json, startHost, startSimAt, type Proc } from './host-helpers';

const started: Proc[] = [];

async function sim(serial: string, extra: string[] = []): Promise<Proc> {
  const p = await startSimAt(serial, ['--announce', ...extra]);
  started.push(p);
  return p;
}

async function listing(host: Proc): Promise<any[]> {
  return json(await exchange(host.port, 'GET', '/api/v1/device')).response;
}

/** Milliseconds until `serials` are all listed online (-1 past `limit`). */
async function foundAfter(host: Proc, serials: string[], limit = 8000): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < limit) {
    const list = await listing(host);
    if (serials.every((s) => list.some((m) => m.serialNumber === s && m.online))) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 50));
  }
  return -1;
}

/** What a DNS-SD browser sees of `name` under _brainstem._tcp and _http._tcp: host, port, TXT. */
async function browseBoth(name: string): Promise<{ [type: string]: unknown }> {
  const bonjour = new Bonjour();
  const seen: { [type: string]: unknown } = {};
  for (const type of ['brainstem', 'http']) {
    bonjour.find({ type }, (s) => {
      if (s.name === name) seen[type] = { host: s.host, port: s.port, txt: s.txt };
    });
  }
  for (let i = 0; i < 40 && Object.keys(seen).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  bonjour.destroy();
  return seen;
}

async function main(): Promise<void> {
  const out: { [key: string]: unknown } = {};
  const a = await sim('0xF0000001', ['--profile', 'usbstem']);
  const b = await sim('0xF0000002');
  out.announcedA = /announced \(DNS-SD\): (\S+)/.exec(a.out())?.[1];
  out.seen = await browseBoth('brainstem-f0000001');
  const host = await startHost([], true);
  started.push(host);
  out.foundMs = await foundAfter(host, ['0xF0000001', '0xF0000002']);
  out.forwarded = [(await exchange(host.port, 'GET', '/api/v1/device/0xF0000001/system/0/serialnumber')).status,
    (await exchange(host.port, 'GET', '/api/v1/device/0xF0000002/system/0/serialnumber')).status];
  // A module started after the host server, with the host name module A already holds.
  const t1 = Date.now();
  const c = await sim('0xF0000001');
  out.announcedC = /announced \(DNS-SD\): (\S+)/.exec(c.out())?.[1];
  out.renameLogged = /is taken on the network/.test(c.out());
  const twice = async (): Promise<boolean> => (await listing(host)).filter((m) => m.serialNumber === '0xF0000001' && m.online).length === 2;
  while (!(await twice()) && Date.now() - t1 < 10000) await new Promise((r) => setTimeout(r, 50));
  out.lateFoundMs = Date.now() - t1;
  out.duplicateStatus = (await exchange(host.port, 'GET', '/api/v1/device/0xF0000001/system/0/model')).status;
  // Announcements that lie: a serial that is not the module's, and an address where nothing listens.
  const liar = new Bonjour();
  liar.publish({ name: 'liar', type: 'brainstem', port: b.port, host: 'liar.local', txt: { serial: '0xDEADBEEF', model: '99' }, probe: false });
  liar.publish({ name: 'ghost', type: 'brainstem', port: 9, host: 'ghost.local', txt: { serial: '0xBAD00001', model: '4' }, probe: false });
  liar.publish({ name: 'junk', type: 'brainstem', port: 0x10000 - 1, host: 'junk.local', txt: { serial: 'x'.repeat(200) }, probe: false });
  await new Promise((r) => setTimeout(r, 3000));
  const list = await listing(host);
  out.listedDeadbeef = list.some((m) => m.serialNumber === '0xDEADBEEF');
  out.ghost = list.find((m) => m.serialNumber === '0xBAD00001') ?? null;
  const ghost = await exchange(host.port, 'GET', '/api/v1/device/0xBAD00001/system/0/model');
  out.ghostAnswer = { status: ghost.status, error: json(ghost).response.error };
  out.healthy = (await exchange(host.port, 'GET', '/api/v1/device/0xF0000002/system/0/model')).status;
  out.targets = json(await exchange(host.port, 'GET', '/api/v1/targets')).length;
  liar.destroy();
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(`lab-netns-run: ${(e as Error).stack}\n`);
  process.exitCode = 1;
}).finally(() => Promise.all(started.map((p) => p.stop())).then(() => process.exit()));
