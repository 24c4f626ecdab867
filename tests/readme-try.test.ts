// README's "Try it" as a newcomer types it: every `curl` command of its block run by sh against a
// factory-fresh simulator process, in order; each answers as the README shows, and the live example
// streams values that move (rail 0 on at 5 V), not zeros.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { startSim, type SimProcess } from './sim-helpers';

const README = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The commands of the first sh block under `## Try it` (the lines it shows as answers are not commands). */
function tryCommands(): string[] {
  const section = README.slice(README.indexOf('## Try it'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  return block.split('\n').filter((l) => /^curl /.test(l));
}

/** One command in sh with B set; an event stream (curl -N) is cut after `seconds`. */
function sh(command: string, b: string, seconds: number): Promise<string> {
  return new Promise((resolve) => {
    execFile('timeout', [String(seconds), 'sh', '-c', command], { env: { ...process.env, B: b } }, (_e, out) => resolve(out));
  });
}

describe('README: Try it', function () {
  this.timeout(30000);
  let sim: SimProcess;
  before(async () => {
    sim = await startSim(['--no-state']);
  });
  after(async () => {
    await sim.stop();
  });

  it('every curl command answers as shown, and the event stream shows values that move', async () => {
    const commands = tryCommands();
    assert.ok(commands.length >= 5, commands.join('\n'));
    const b = `http://127.0.0.1:${sim.port}/api/v1/device`;
    let stream = '';
    for (const c of commands) {
      const out = await sh(c, b, c.includes(' -N ') ? 3 : 10);
      if (c.includes('/events?')) {
        stream = out;
        continue;
      }
      assert.ok(out.length > 0, `no answer to ${c}`);
      if (!c.includes(' -i ')) assert.ok(JSON.parse(out).response, `${c}: ${out}`);
    }
    const events = stream.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)).values);
    assert.ok(events.length >= 3, stream);
    const watched = Object.keys(events[0]);
    assert.ok(watched.length >= 1, stream);
    for (const key of watched) {
      const values = events.map((e) => e[key].value as number);
      assert.ok(values.every((v) => v !== 0), `${key} streams zeros: ${values.join(' ')}`);
    }
    const volts = events.map((e) => e['rail/0/voltage']?.value as number);
    assert.ok(volts.every((v) => Math.abs(v - 5_000_000) < 10_000), `rail 0 at 5 V: ${volts.join(' ')}`);
    const distinct = new Set(events.flatMap((e) => watched.map((k) => `${k}=${e[k].value}`)));
    assert.ok(distinct.size > watched.length, `the values move: ${[...distinct].join(' ')}`);
  });
});
