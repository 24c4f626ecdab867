// docs/security.md §Digest: HTTP Digest (RFC 7616, SHA-256, qop=auth) with the token as the password,
// through the shared access control: the 401's two challenges, a right digest, a replay (stale=true,
// nothing runs), late counts, wrong passwords counted by the lockout, expired and foreign nonces,
// `auth: digest` refusing Bearer, and the bounded nonce record.
import { strict as assert } from 'node:assert';
import { ask, HB, PATH, putHb, readHb, simWithApi, type Reply } from './access-helpers';
import { rawExchange, splitResponses } from './helpers';
import { DigestClient, digestChallenge } from '../host-server/digest-client';
import { DigestParams } from '../src/api/access/digest-params';
import { NonceRecord, NONCE_SLOTS } from '../src/api/access/nonce-record';
import { NONCE_MS } from '../src/api/access/digest-auth';

const TOKEN = 'lab-7f3a9c';
const BODY = (v: number): string => JSON.stringify({ value: v });

/** A client that learnt the nonce of a 401 from `api`. */
function client(api: Parameters<typeof putHb>[0], password = TOKEN): DigestClient {
  const c = new DigestClient(password, 'admin');
  const r = putHb(api, 1);
  assert.equal(r.status, 401);
  assert.ok(c.learn(r.headers['www-authenticate']), r.headers['www-authenticate']);
  return c;
}

const putWith = (api: Parameters<typeof putHb>[0], auth: string, v: number, peer?: string): Reply =>
  ask(api, { method: 'PUT', target: HB, body: BODY(v), auth, ...(peer ? { peer } : {}) });

describe('access: HTTP Digest', () => {
  it('offers Digest first and Bearer second on the wire; with auth "digest" only Digest', () => {
    for (const [auth, schemes] of [['any', ['Digest', 'Bearer']], ['digest', ['Digest']]] as const) {
      const { api } = simWithApi({ token: TOKEN, auth });
      const { out } = rawExchange(api, [`PUT ${HB} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\n${BODY(9)}`]);
      const [answer] = splitResponses(out);
      assert.equal(answer.status, 401);
      const lines = answer.head.split('\r\n').filter((l) => l.startsWith('WWW-Authenticate: '));
      assert.deepEqual(lines.map((l) => l.split(' ')[1]), schemes, answer.head);
      assert.match(lines[0], /^WWW-Authenticate: Digest realm="brainstem", qop="auth", algorithm=SHA-256, nonce="[0-9a-f]{48}"$/);
      assert.ok(!answer.head.includes(TOKEN));
    }
  });

  it('a right digest runs the PUT; the same request again is refused 401 stale=true and runs nothing', () => {
    const { api } = simWithApi({ token: TOKEN });
    const c = client(api);
    const auth = c.authorization('PUT', HB);
    assert.equal(putWith(api, auth, 33).status, 200);
    assert.equal(readHb(api), 33);
    const replay = putWith(api, auth, 34);
    assert.equal(replay.status, 401);
    assert.equal(digestChallenge(replay.headers['www-authenticate'])?.stale, true, replay.headers['www-authenticate']);
    assert.equal(readHb(api), 33, 'the replay ran nothing');
    assert.equal(putWith(api, c.authorization('PUT', HB), 35).status, 200, 'the next count passes');
    assert.equal(readHb(api), 35);
  });

  it('takes counts that arrive out of order once each, within 32 of the highest', () => {
    const { api } = simWithApi({ token: TOKEN });
    const c = client(api);
    const auths = Array.from({ length: 40 }, () => c.authorization('PUT', HB));
    assert.equal(putWith(api, auths[39], 20).status, 200, 'nc 40');
    assert.equal(putWith(api, auths[10], 21).status, 200, 'nc 11: late, within the window');
    assert.equal(putWith(api, auths[10], 22).status, 401, 'nc 11 again');
    assert.equal(putWith(api, auths[5], 23).status, 401, 'nc 6: below the window');
    assert.equal(putWith(api, auths[39], 24).status, 401, 'nc 40 again');
    assert.equal(readHb(api), 21);
  });

  it('binds the digest to the method and target: another target or a wrong uri is refused', () => {
    const { api } = simWithApi({ token: TOKEN });
    const c = client(api);
    const other = `${PATH}/system/0/ledmaxbrightness`;
    const r = putWith(api, c.authorization('PUT', other), 40);
    assert.equal(r.status, 401);
    assert.match(r.json.response.message, /uri/);
    assert.equal(ask(api, { method: 'PUT', target: HB, body: BODY(41), auth: c.authorization('GET', HB) }).status, 401, 'another method');
    assert.notEqual(readHb(api), 41);
  });

  it('counts a wrong password toward the lockout: 10 within a minute lock the address (429)', () => {
    let now = 2_000_000;
    const { api } = simWithApi({ token: TOKEN, ticks: () => now });
    const wrong = client(api, 'guess');
    const attacker = '10.0.0.66';
    for (let i = 0; i < 10; i++) {
      now += 1000;
      const r = putWith(api, wrong.authorization('PUT', HB), 50, attacker);
      assert.equal(r.status, 401);
      assert.equal(digestChallenge(r.headers['www-authenticate'])?.stale, false, 'a wrong digest is not stale');
      assert.equal(r.json.response.message, 'the digest is not the token\'s');
    }
    const right = client(api);
    assert.equal(putWith(api, right.authorization('PUT', HB), 51, attacker).status, 429);
    assert.equal(putWith(api, right.authorization('PUT', HB), 52, '10.0.0.7').status, 200);
  });

  it('a replay or a stale nonce does not count toward the lockout', () => {
    let now = 3_000_000;
    const { api } = simWithApi({ token: TOKEN, ticks: () => now });
    const c = client(api);
    const auth = c.authorization('PUT', HB);
    assert.equal(putWith(api, auth, 60).status, 200);
    for (let i = 0; i < 15; i++) assert.equal(putWith(api, auth, 61).status, 401);
    assert.equal(putWith(api, c.authorization('PUT', HB), 62).status, 200, 'not locked out');
    now += NONCE_MS + 1000;
    const late = putWith(api, c.authorization('PUT', HB), 63);
    assert.equal(late.status, 401);
    assert.match(late.json.response.message, /expired/);
    assert.equal(digestChallenge(late.headers['www-authenticate'])?.stale, true);
    assert.ok(c.learn(late.headers['www-authenticate']));
    assert.equal(putWith(api, c.authorization('PUT', HB), 64).status, 200, 'the fresh nonce of the stale answer works');
  });

  it('refuses a nonce it did not issue (another server, a restart) as stale, forged seals as stale too', () => {
    const a = simWithApi({ token: TOKEN }).api;
    const b = simWithApi({ token: TOKEN }).api;
    const fromA = client(a);
    const r = putWith(b, fromA.authorization('PUT', HB), 70);
    assert.equal(r.status, 401);
    assert.match(r.json.response.message, /not one this server issued/);
    assert.equal(digestChallenge(r.headers['www-authenticate'])?.stale, true);
    assert.notEqual(readHb(b), 70);
  });

  it('seals its nonces with the bytes of its random source alone: the same bytes, the same nonces; other bytes, others', () => {
    const from = (fill: number) => (out: Uint8Array): void => { out.fill(fill); };
    const nonce = (fill: number): string | undefined => {
      const { api } = simWithApi({ token: TOKEN, random: from(fill), ticks: () => 5000 });
      return digestChallenge(putHb(api, 1).headers['www-authenticate'])?.nonce;
    };
    // Two starts whose chips gave the same bytes (no Math.random, no boot count in the secret) ...
    assert.equal(nonce(7), nonce(7));
    // ... and two whose chips gave others.
    assert.notEqual(nonce(7), nonce(8));
    assert.throws(() => simWithApi({ token: TOKEN, random: undefined }), /a token needs options.random/);
  });

  it('with auth "digest", Bearer is refused even with the right token; without a token nothing changes', () => {
    const { api } = simWithApi({ token: TOKEN, auth: 'digest' });
    const r = putHb(api, 80, { auth: `Bearer ${TOKEN}` });
    assert.equal(r.status, 401);
    assert.match(r.json.response.message, /Digest/);
    assert.notEqual(readHb(api), 80);
    assert.equal(putWith(api, client(api).authorization('PUT', HB), 81).status, 200);
    assert.equal(putHb(simWithApi({}).api, 82).status, 200, 'no token: writes are open');
    assert.throws(() => simWithApi({ token: TOKEN, auth: 'basic' }), /auth is one of any, digest/);
  });

  it('refuses credentials of another algorithm, qop or realm without counting them', () => {
    const { api } = simWithApi({ token: TOKEN });
    const auth = client(api).authorization('PUT', HB);
    for (const [from, to] of [['algorithm=SHA-256', 'algorithm=MD5'], ['qop=auth', 'qop=auth-int'], ['realm="brainstem"', 'realm="x"'], [', nc=', ', xx=']]) {
      const r = putWith(api, auth.replace(from, to), 90);
      assert.equal(r.status, 401, to);
      assert.ok(r.headers['www-authenticate'], to);
    }
    assert.equal(putWith(api, auth, 91).status, 200, 'the right one still passes: nothing was counted or taken');
  });
});

describe('access: Digest parameters and the nonce record', () => {
  it('reads tokens and quoted strings with escapes, and refuses what is not a list', () => {
    const p = new DigestParams();
    assert.equal(p.read('Digest username="a\\"b", realm=brainstem ,nc=00000001,  uri="/x?y=1,2"', 7), true);
    assert.deepEqual([p.username, p.realm, p.nc, p.uri], ['a"b', 'brainstem', '00000001', '/x?y=1,2']);
    assert.equal(p.read('Digest username="open', 7), false);
    assert.equal(p.read('Digest username', 7), false);
    assert.equal(p.read('Digest a=1 b=2', 7), false);
  });

  it('holds at most 8 nonces; one that left is refused, as is every nonce issued before it', () => {
    const r = new NonceRecord();
    for (let i = 1; i <= NONCE_SLOTS; i++) assert.equal(r.take(i, 1), true);
    assert.equal(r.take(NONCE_SLOTS + 5, 1), true, 'a new one pushes out the first issued');
    assert.equal(r.size(), NONCE_SLOTS);
    assert.equal(r.take(1, 2), false, 'the nonce that left');
    assert.equal(r.take(0, 1), false, 'a nonce issued before it, never used');
    assert.equal(r.take(NONCE_SLOTS + 1, 1), true, 'a later nonce never used');
    assert.equal(r.take(2, 2), false, 'nonce 2 left for it');
    assert.equal(r.take(NONCE_SLOTS + 5, 1), false, 'a count taken');
    assert.equal(r.take(NONCE_SLOTS + 5, 33), true);
    assert.equal(r.take(NONCE_SLOTS + 5, 1), false, 'nc 1, 32 below 33, still remembered as taken');
    assert.equal(r.take(NONCE_SLOTS + 5, 2), true, 'nc 2: late, within the window');
    assert.equal(r.take(NONCE_SLOTS + 5, 2), false);
  });
});
