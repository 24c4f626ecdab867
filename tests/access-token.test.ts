// docs/api.md §Access control, the credential: bearer token for writes (optionally reads; Digest: access-digest.test.ts), its
// constant-time comparison, the 429 lockout with a fake clock, and where the settings come from.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { ask, HB, PATH, putHb, readHb, simWithApi } from './access-helpers';
import { constantTimeEquals } from '../src/api/access/access';
import { LockoutTable, LOCKOUT_SLOTS } from '../src/api/access/lockout';
import { accessFromConfig } from '../src/api/access/access-config';
import { parseOptions, UsageError } from '../host-sim/options';
import { rawExchange, splitResponses } from './helpers';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';

const TOKEN = 'lab-7f3a9c';
const RIGHT = `Bearer ${TOKEN}`;

describe('access: bearer token', () => {
  it('answers a PUT or an action without the token 401 with WWW-Authenticate, and runs nothing', () => {
    const { api, module } = simWithApi({ token: TOKEN });
    putHb(api, 30, { auth: RIGHT });
    for (const auth of ['', 'Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer  ' + TOKEN]) {
      const r = putHb(api, 31, { auth });
      assert.equal(r.status, 401, auth);
      assert.equal(r.json.response.error, 'aErrPermission');
      assert.match(r.headers['www-authenticate'], /^Digest realm="brainstem", .*, Bearer\b/, 'Digest first, Bearer second');
      assert.equal(ask(api, { target: `${PATH}/system/0/reset`, auth }).status, 401);
    }
    assert.equal(module.resetPending(), false);
    assert.equal(readHb(api), 30, 'reads stay open');
    assert.equal(putHb(api, 32, { auth: `bearer ${TOKEN}` }).status, 200, 'the scheme is case-insensitive');
    assert.equal(ask(api, { method: 'OPTIONS', target: HB }).status, 204, 'OPTIONS needs no token');
  });

  it('closes reads too when asked, listings included', () => {
    const { api } = simWithApi({ token: TOKEN, tokenReads: true });
    for (const target of [HB, PATH, `${PATH}/0x1234abcd`]) {
      const r = ask(api, { target });
      assert.equal(r.status, 401, target);
      assert.match(r.headers['www-authenticate'], /^Digest .*, Bearer$/);
      assert.equal(ask(api, { target, auth: RIGHT }).status, 200, target);
    }
  });

  it('never echoes the token', () => {
    const { api } = simWithApi({ token: TOKEN, tokenReads: true });
    for (const r of [ask(api, { target: PATH, auth: RIGHT }), ask(api, { target: `${PATH}/0x1234abcd`, auth: RIGHT }),
      putHb(api, 20, { auth: `Bearer ${TOKEN}0` }), ask(api, { target: HB, auth: RIGHT })]) {
      assert.ok(!r.body.includes(TOKEN), r.body);
      assert.ok(!JSON.stringify(r.headers).includes(TOKEN));
    }
  });

  it('locks an address out (429) after 10 wrong tokens within a minute, for a minute', () => {
    let now = 1_000_000;
    const { api } = simWithApi({ token: TOKEN, ticks: () => now });
    const attacker = { peer: '10.0.0.66' };
    for (let i = 0; i < 20; i++) assert.equal(putHb(api, 40, { ...attacker }).status, 401, 'a missing token does not count');
    for (let i = 0; i < 10; i++) {
      now += 1000;
      assert.equal(putHb(api, 40, { ...attacker, auth: 'Bearer guess' + i }).status, 401);
    }
    const locked = putHb(api, 41, { ...attacker, auth: RIGHT });
    assert.equal(locked.status, 429, 'even the right token is refused while locked');
    assert.equal(locked.json.response.error, 'aErrPermission');
    assert.equal(locked.headers['retry-after'], '60');
    assert.equal(putHb(api, 42, { peer: '10.0.0.7', auth: RIGHT }).status, 200, 'other addresses are not locked');
    assert.equal(readHb(api), 42);
    now += 59_000;
    assert.equal(putHb(api, 43, { ...attacker, auth: RIGHT }).status, 429);
    now += 1000;
    assert.equal(putHb(api, 44, { ...attacker, auth: RIGHT }).status, 200, 'the lock ends after a minute');
  });

  it('counts wrong tokens per minute: 9 now and 9 a minute later lock nothing', () => {
    let now = 5_000_000;
    const { api } = simWithApi({ token: TOKEN, ticks: () => now });
    for (let i = 0; i < 9; i++) assert.equal(putHb(api, 20, { auth: 'Bearer x' }).status, 401);
    now += 60_000;
    for (let i = 0; i < 9; i++) assert.equal(putHb(api, 20, { auth: 'Bearer x' }).status, 401);
    assert.equal(putHb(api, 21, { auth: RIGHT }).status, 200);
  });

  it('answers 429 Too Many Requests with Retry-After on the wire', () => {
    const { api } = simWithApi({ token: TOKEN });
    const put = `PUT ${HB} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer nope\r\nContent-Length: 11\r\n\r\n{"value":9}`;
    const { out } = rawExchange(api, [put.repeat(11)]);
    const answers = splitResponses(out);
    assert.equal(answers.length, 11);
    assert.match(answers[9].head, /^HTTP\/1\.1 401 Unauthorized\r\n[^]*WWW-Authenticate: Bearer error="invalid_token"/);
    assert.match(answers[10].head, /^HTTP\/1\.1 429 Too Many Requests\r\n[^]*Retry-After: 60/);
  });
});

describe('access: constant-time comparison and the lockout table', () => {
  it('compares exactly, lengths included', () => {
    assert.equal(constantTimeEquals('Bearer abc', 7, 'abc'), true);
    assert.equal(constantTimeEquals('Bearer abd', 7, 'abc'), false);
    assert.equal(constantTimeEquals('Bearer ab', 7, 'abc'), false);
    assert.equal(constantTimeEquals('Bearer abcd', 7, 'abc'), false);
    assert.equal(constantTimeEquals('Bearer ', 7, 'abc'), false);
    assert.equal(constantTimeEquals('Bearer ab\0', 7, 'ab\0'), true);
    assert.equal(constantTimeEquals('Bearer ab', 7, 'ab\0'), false, 'a missing character is not a NUL');
  });

  it('reads every character of the secret whatever the input (no early exit)', () => {
    const secret = 'x'.repeat(32);
    const counts: number[] = [];
    for (const given of ['Bearer ' + 'y'.repeat(32), 'Bearer ' + 'x'.repeat(31) + 'y', 'Bearer ', 'Bearer ' + 'x'.repeat(200), 'Bearer ' + secret]) {
      let reads = 0;
      const probe = Object.assign(new String(given), {
        charCodeAt(i: number): number { reads++; return given.charCodeAt(i); },
      });
      constantTimeEquals(probe as unknown as string, 7, secret);
      counts.push(reads);
    }
    assert.deepEqual(counts, [32, 32, 32, 32, 32]);
  });

  it('keeps at most 8 addresses, dropping unlocked ones before locked ones', () => {
    const t = new LockoutTable();
    for (let i = 0; i < 10; i++) t.fail('locked', 0);
    for (let p = 0; p < 50; p++) t.fail('peer' + p, p + 1);
    assert.equal(t.size(), LOCKOUT_SLOTS);
    assert.equal(t.lockedFor('locked', 100), 60_000 - 100, 'the lock survives a flood of new addresses');
  });
});

describe('access: configuration', () => {
  it('parses --token, --token-reads, --auth, --allow-host (repeatable) and --cors ORIGIN,ORIGIN', () => {
    const c = parseOptions(['--token', 's3', '--token-reads', '--auth', 'digest', '--allow-host', 'a.lab', '--allow-host', 'b.lab',
      '--cors', 'http://x.lab:8000,http://y.lab', '--cors', '*'], {});
    assert.deepEqual(c.access, { token: 's3', tokenReads: true, auth: 'digest', sha256: nodeSha256, random: nodeRandom, allowHosts: ['a.lab', 'b.lab'],
      cors: ['http://x.lab:8000', 'http://y.lab', '*'] });
    assert.deepEqual(parseOptions([], {}).access, { token: '', tokenReads: false, auth: 'any', sha256: nodeSha256, random: nodeRandom, allowHosts: [], cors: [] });
    for (const bad of [['--cors'], ['--cors', 'x.lab'], ['--token-reads'], ['--token', 'a b'], ['--allow-host', 'a/b'],
      ['--auth', 'digest'], ['--token', 't', '--auth', 'basic']]) {
      assert.throws(() => parseOptions(bad, {}), UsageError, bad.join(' '));
    }
  });

  it('merges manifest config.http, mcconfig arguments and saved settings, later ones winning', () => {
    const none = (): undefined => undefined;
    assert.deepEqual(accessFromConfig({ cors: false }, {}, none), { token: '', tokenReads: false, auth: 'any', allowHosts: [], cors: [] });
    const manifest = { token: 'm', auth: 'digest', allowHosts: ['m.lab'], cors: ['http://m.lab'] };
    assert.deepEqual(accessFromConfig(manifest, { token: 'arg', cors: 'http://a.lab, http://b.lab', tokenReads: 'true' }, none),
      { token: 'arg', tokenReads: true, auth: 'digest', allowHosts: ['m.lab'], cors: ['http://a.lab', 'http://b.lab'] });
    const saved: Record<string, string> = { token: 'saved', hosts: 's.lab,t.lab', reads: '0', auth: 'any' };
    assert.deepEqual(accessFromConfig(manifest, { tokenReads: 'true' }, (k) => saved[k]),
      { token: 'saved', tokenReads: false, auth: 'any', allowHosts: ['s.lab', 't.lab'], cors: ['http://m.lab'] });
  });

  it('the simulator command line wires the token, allowed hosts and CORS origins', async function () {
    this.timeout(10_000);
    const main = path.resolve(__dirname, '../host-sim/main.js');
    const child = spawn(process.execPath, [main, '--port', '0', '--no-state', '--token', TOKEN, '--allow-host', 'bench7.lab',
      '--cors', 'http://dash.lab:8000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let banner = '';
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          banner += d;
          const m = /try: curl http:\/\/127\.0\.0\.1:(\d+)/.exec(banner);
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const send = (headers: Record<string, string>, method = 'PUT'): Promise<http.IncomingMessage> => new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path: HB, headers }, (res) => { res.resume(); resolve(res); });
        req.on('error', reject);
        req.end(method === 'PUT' ? '{"value":9}' : undefined);
      });
      assert.equal((await send({})).statusCode, 401);
      assert.equal((await send({ authorization: RIGHT, host: 'bench7.lab:80' })).statusCode, 200);
      assert.equal((await send({ authorization: RIGHT, host: 'other.lab' })).statusCode, 403);
      const cors = await send({ origin: 'http://dash.lab:8000' }, 'GET');
      assert.equal(cors.headers['access-control-allow-origin'], 'http://dash.lab:8000');
      assert.equal(cors.headers['cache-control'], 'no-store');
      assert.ok(!banner.includes(TOKEN), 'the banner does not print the token');
    } finally {
      child.kill();
    }
  });
});
