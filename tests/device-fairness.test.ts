// Fairness at the module's connection cap (docs/api.md §HTTP limits): src/device/server.ts on the
// fake ECMA-419 network and clock (tests/fakes), a cap of 4 and 48 attackers of one kind that re-open
// what the server drops every 5 s. Every honest request (one every 500 ms, retried after
// Retry-After on a 503) is answered, and succeeds within 2 s of its first try.

import { strict as assert } from 'node:assert';
import { freshWorld, get, makeModule, net, put, replies, serve } from './fakes/world';
import { Api } from '../src/api/api';
import { DeviceServer } from '../src/device/server';
import { standardTextCodec } from '../util/text';
import type { FakeClient } from './fakes/net';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';

type Kind = 'slowloris' | 'slow-body' | 'idle';

const CRLF = '\r\n';
/** What an attacker sends when it connects: a head cut short, a head with a body cut short, or a whole request. */
const OPENING: { [K in Kind]: string } = {
  slowloris: 'GET /api/v1/device/system/0/serialnumber HTTP/1.1' + CRLF + 'Ho',
  'slow-body': 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1' + CRLF + 'Host: 192.168.1.50' + CRLF +
    'Content-Length: 100' + CRLF + CRLF + '{',
  idle: get('system/0/serialnumber'),
};
/** One more byte every 5 s keeps a slowloris or slow-body attacker "active". */
const TRICKLE: { [K in Kind]: string } = { slowloris: 's', 'slow-body': ' ', idle: '' };

interface Figures { requests: number; succeeded: number; first503: number; worstWaitMs: number }

function attack(kind: Kind): Figures {
  serve(8080, 4);
  let attackers: FakeClient[] = [];
  const open = (n: number): void => {
    for (let i = 0; i < n; i++) {
      const c = net.connect(8080, 4096, `192.0.2.${10 + (i % 200)}`);
      c.send(OPENING[kind]);
      attackers.push(c);
    }
    net.run();
  };
  open(48);
  const f: Figures = { requests: 0, succeeded: 0, first503: 0, worstWaitMs: 0 };
  for (let round = 0; round < 40; round++) {
    net.advance(500);
    if (round % 10 === 9) {
      // every 5 s: each attacker still open trickles a byte; the dropped ones come back
      const alive = attackers.filter((c) => !c.closedByServer);
      for (const c of alive) if (TRICKLE[kind]) c.send(TRICKLE[kind]);
      attackers = alive;
      open(48 - alive.length);
    }
    f.requests++;
    let waited = 0;
    for (let tries = 0; tries < 5; tries++) {
      const honest = net.connect(8080, 4096, '192.0.2.250');
      honest.send(get('system/0/serialnumber'));
      net.run();
      const r = replies(honest);
      assert.equal(r.length, 1, `round ${round}: an honest request got no answer`);
      honest.close();
      net.run();
      if (r[0].status === 200) {
        f.succeeded++;
        break;
      }
      assert.equal(r[0].status, 503, `round ${round}: ${r[0].head}`);
      assert.match(r[0].head, /\r\nRetry-After: 1(\r\n|$)/);
      assert.equal(r[0].json.response.error, 'aErrResource');
      if (tries === 0) f.first503++;
      net.advance(1000);
      waited += 1000;
    }
    f.worstWaitMs = Math.max(f.worstWaitMs, waited);
  }
  return f;
}

describe('fairness at the module cap of 4 (device server, fake network and clock)', () => {
  beforeEach(() => freshWorld());

  for (const kind of ['slowloris', 'slow-body', 'idle'] as Kind[]) {
    it(`${kind}: 48 attackers; every honest request succeeds within 2 s`, () => {
      const f = attack(kind);
      if (process.env.FAIRNESS_REPORT) {
        console.log(`      device ${kind}: ${f.succeeded}/${f.requests} succeeded, ${f.first503} first tries got 503, worst wait ${f.worstWaitMs} ms (fake clock)`);
      }
      assert.equal(f.succeeded, f.requests);
      assert.ok(f.worstWaitMs <= 2000, `waited ${f.worstWaitMs} ms`);
      if (kind === 'idle') assert.equal(f.first503, 0, 'idle connections give way at once');
    });
  }

  it('a newcomer at the cap takes the slot of the connection idle longest', () => {
    serve(8080, 4);
    const clients = [0, 1, 2, 3].map(() => net.connect(8080));
    for (const c of clients) {
      c.send(get('system/0/serialnumber'));
      net.run();
      net.advance(100);
    }
    const fifth = net.connect(8080);
    fifth.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(replies(fifth)[0].status, 200);
    assert.deepEqual(clients.map((c) => c.closedByServer), [true, false, false, false]);
  });

  it('answers 503 with Retry-After while every slot holds a young partial request, and takes a stale one after 2 s', () => {
    serve(8080, 4);
    const partial = [0, 1, 2, 3].map(() => net.connect(8080));
    for (const c of partial) c.send(OPENING.slowloris);
    net.run();
    const early = net.connect(8080);
    net.run();
    const refused = replies(early)[0];
    assert.equal(refused.status, 503);
    assert.match(refused.head, /\r\nRetry-After: 1(\r\n|$)/);
    net.advance(2000);
    const late = net.connect(8080);
    late.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(replies(late)[0].status, 200);
    const evicted = partial.filter((c) => c.closedByServer);
    assert.equal(evicted.length, 1);
    assert.equal(replies(evicted[0])[0].status, 408);
  });

  it('hands each connection its peer address: a token lockout is per client', () => {
    const codec = standardTextCodec();
    const api = new Api([makeModule()], { codec, token: 'secret', sha256: nodeSha256, random: nodeRandom });
    new DeviceServer(api, { codec, port: 8081, maxConnections: 4 });
    const wrong = put('system/0/hbinterval', 20, 'Authorization: Bearer nope\r\n');
    const from = (address: string): number => {
      const c = net.connect(8081, 4096, address);
      c.send(wrong);
      net.run();
      const status = replies(c)[0].status;
      c.close();
      net.run();
      return status;
    };
    for (let i = 0; i < 10; i++) assert.equal(from('192.0.2.5'), 401);
    assert.equal(from('192.0.2.5'), 429);
    assert.equal(from('192.0.2.6'), 401, 'another client is not locked out');
  });
});
