// Run inside a network namespace of its own (tests/lab-discovery.test.ts starts it with unshare -n,
// loopback up with multicast): a simulator announcing its module is reset twice, once with nothing
// changed and once after a new host name was saved, while a DNS-SD browser watches. Prints what the
// browser and the simulator's log showed as one JSON line; the test makes the assertions.

import { Bonjour, type Service } from 'bonjour-service';
import { exchange, startSimAt, type Proc } from './host-helpers';

const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const out: { [key: string]: unknown } = {};
  const sim: Proc = await startSimAt('0xF0000011', ['--announce']);
  const events: string[] = [];
  const t0 = Date.now();
  const bonjour = new Bonjour();
  const browser = bonjour.find({ type: 'brainstem' });
  browser.on('up', (s: Service) => events.push(`up ${s.name} ${s.host}`));
  browser.on('down', (s: Service) => events.push(`down ${s.name} ${Date.now() - t0}`));
  try {
    const api = '/api/v1/device/system/0';
    for (let i = 0; i < 50 && !events.length; i++) await settle(100);
    out.before = [...events];
    // A reset that changes nothing the module announces.
    out.plainReset = (await exchange(sim.port, 'GET', `${api}/reset`)).status;
    await settle(1500);
    out.afterPlainReset = [...events];
    // A new host name saved, then the reset that brings it into effect.
    const value = JSON.stringify({ value: 'bench-f11' });
    out.put = (await exchange(sim.port, 'PUT', '/api/v1/device/ethernet/0/hostname', value, { 'content-type': 'application/json' })).status;
    await settle(1500);
    out.beforeReset = [...events]; // a setting not yet in effect is not announced
    out.save = (await exchange(sim.port, 'GET', `${api}/save`)).status;
    const reset = Date.now() - t0;
    out.reset = (await exchange(sim.port, 'GET', `${api}/reset`)).status;
    // the browser's view and the simulator's log line (its pipe may come later on a loaded machine)
    const announcedAgain = (): boolean => events.some((e) => e.startsWith('up bench-f11')) && sim.out().includes('announced again');
    for (let i = 0; i < 50 && !announcedAgain(); i++) await settle(100);
    out.after = events.map((e) => e.replace(/ (\d+)$/, (_, ms) => ` +${Number(ms) - reset}`));
    out.log = sim.out().split('\n').filter((l) => l.includes('announce'));
  } finally {
    bonjour.destroy();
    await sim.stop();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(`lab-reannounce-run: ${(e as Error).stack}\n`);
  process.exitCode = 1;
}).finally(() => process.exit());
