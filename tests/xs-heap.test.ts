// Memory guard that needs no Moddable SDK: under a real XS engine (xsnap), the device-side
// core (Api + 4 Connections + a shared codec, wired as src/device/app.ts wires them, over the simulated
// module HAL, which is made before the baseline and not counted) with
// every connection holding a half-received request retains at most a fixed number of heap slots and
// of buffer bytes, and neither grows over 10,000 requests. docs/module.md §Memory budget has the
// numbers these bounds come from; they leave headroom over what was measured, not room for a leak.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker, opWithCount } from './xs/xsnap-worker';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Live slots the core adds over the loaded bundle and the HAL: 327 after 10,100 requests with 4 half
 * requests held (351 when
 * each request head kept a slot for every header value it acts on, the codec was three closures and
 * the connection's header values were all its own; 386 when each connection held its own answer fields, head framing and streamed-body
 * object; 514 when it also made its body buffer, chunked decoder and answer object up front); of them
 * about 24 are a firmware update's streamed-body path and an answer made later (each parser's sink and
 * router, each connection's pending answer, the Api's table of uploads). The slots between the two are
 * mostly the parser's three RegExps (src/http/patterns.ts),
 * made once at the first field that needs them on either path: these requests arrive in two reads, so
 * only the byte path runs here, and the fast path makes the same patterns at a device's first request.
 */
const MAX_CORE_SLOTS = 335;
/**
 * Live slots one connection holding a half-received request adds: measured 50.5, 4 of them the update
 * path and the answer made later (56.5 when its request head kept a slot for each of the seldom-sent
 * header values; about 24 more when each held the server-wide fields itself, a head framing object and
 * a streamed-body object while idle).
 */
const MAX_CONNECTION_SLOTS = 54;
/**
 * Slots one answered GET allocates (garbage included, between collections): measured 155 for a request
 * that comes in two reads, its head buffer made for it and dropped after it (144 when every connection
 * kept a 512-byte head buffer for its whole life).
 */
const MAX_REQUEST_SLOTS = 162;
/**
 * Live slots a connection holds beyond an idle one while GET /metrics or the description streams and
 * its socket is full: measured 67 and 62 (76 and 70 when each piece went as two writes, its size
 * line apart; 79 and 73 when the streamed body kept a slot per flag; 85 and
 * 79 when the request head also kept a slot for each of the
 * seldom-sent header values; 90 each when each metric family was a stored row and the streamed body
 * and framing belonged to the connection).
 */
const MAX_STREAM_SLOTS = 72;
/**
 * Buffer bytes the 4 connections hold: 4 x 512, the idle size of the on-demand request buffers, which a
 * small half-received request fits in (36,872 when each connection held a 5 KiB head and a 4 KiB body
 * buffer for its whole life).
 */
const MAX_CONNECTION_BUFFER_BYTES = 4 * 512;
/**
 * Slots one piece of the description allocates (garbage included, between collections), the most of
 * any of its 23 pieces: measured 431 (most of it the piece's strings as they grow, garbage at once).
 * 552 when the piece with system/modulesoftwareoffset's 128 accepted values copied the list (filtered
 * to the type's range, which every value was in) and joined the copy, both live until the piece was
 * made: 2 slots a value and a 4 KiB array, the turn that ran a 3/4 heap out under a lab's load.
 */
const MAX_DESCRIPTION_PIECE_SLOTS = 460;
/** Live slots that may come and go between two samples (XS caches, the JSON report itself). */
const SLOT_NOISE = 64;
/**
 * The device server on the fake ECMA-419 sockets (tests/xs/device-entry.ts; the fake socket is
 * JavaScript, so its own slots are inside these figures): live slots the device module, the Api and
 * the listening server retain after a boot. Measured 392 (420 when the byte settings' factory values
 * were Uint8Arrays; 510 when settings kept every value beside its factory value, the codec was three
 * closures and the server's listener and timer callbacks were closures). 400 with the server's list of
 * waiting newcomers and of drain notices (392 before it kept them, with a timer per drain notice instead);
 * 406 with the accepted values' JSON of system/bootslot, made at boot, and the flag of a tick that
 * sleeps while no client is connected; 407 with the system entity's monotonic clock (its uptime).
 */
const MAX_DEVICE_BOOT_SLOTS = 410;
/**
 * Live slots a device connection holding a half-received request adds, its transport and socket
 * included. Measured 110.5 (112.5 when its transport kept an empty answer queue; 118.5 with a slot per
 * seldom-sent header value in its request head; 133.5
 * when the transport also kept a closure for its drain notice, a slot per flag and the read buffer's
 * reference).
 */
const MAX_DEVICE_CONNECTION_SLOTS = 116;
/**
 * Live slots a socket refused with 503 (every slot held) adds while its answer waits to be taken, 4 such
 * sockets averaged: measured 44.5, one of them a transport with its 503 and three bare sockets waiting
 * behind it (80.5 when each got its transport and its 503 at once; 105.75 when a transport also kept a
 * closure for its drain notice and one for its linger timer).
 */
const MAX_REFUSED_SOCKET_SLOTS = 50;
/**
 * Slots a refusal allocates, garbage included, 4 refusals averaged: measured 138.75 (210 when each made
 * its transport and answer at once; 295 when a refused socket got a whole Connection, its request
 * parser and its 512-byte head buffer, before being answered).
 */
const MAX_REFUSAL_SLOTS = 150;
/**
 * Live slots an idle keep-alive device connection holds after its first answer, its transport and
 * socket included: measured 110.75 (117.75 when every connection kept a 512-byte head buffer for its life).
 */
const MAX_DEVICE_IDLE_CONNECTION_SLOTS = 114;

interface Report { bytes: number; written: number; closed: number }

describe('retained heap of the device-side core under XS', function () {
  this.timeout(120_000);
  let worker: XsnapWorker;

  const command = (bytes: Uint8Array | number[]): Promise<Report> => worker.report<Report>(bytes);
  const liveSlots = (): Promise<number> => worker.liveSlots();
  const run = (n: number): Uint8Array => opWithCount(0x52, n);

  before(async function () {
    worker = new XsnapWorker({ name: 'xs-heap' });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/heap-entry.ts'));
  });

  after(async () => {
    await worker?.close();
  });

  it('stays under a fixed bound with 4 connections each holding a half-received request, and does not grow over 10,000 requests', async () => {
    await command([0x48]); // the module HAL (not the core) and the report path, before the baseline
    const base = await liveSlots();
    const held = await command([0x53]);
    const afterSetUp = await liveSlots();
    const core = afterSetUp - base;
    assert.ok(core > 0 && core <= MAX_CORE_SLOTS, `the core retains ${core} slots (bound ${MAX_CORE_SLOTS})`);
    assert.ok(held.bytes <= MAX_CONNECTION_BUFFER_BYTES, `4 connections hold ${held.bytes} buffer bytes (bound ${MAX_CONNECTION_BUFFER_BYTES})`);
    assert.equal(held.written, 0, 'a half-received request is not answered');

    const warm = await command(run(100));
    const afterWarm = await liveSlots();
    let last = warm;
    for (let i = 0; i < 10; i++) last = await command(run(1000));
    const afterLong = await liveSlots();
    assert.equal(last.closed, 0, 'no connection closed');
    assert.ok(last.written > 10_100 * 100, `answers were written (${last.written} bytes)`);
    assert.ok(afterLong - afterWarm <= SLOT_NOISE, `live slots grew from ${afterWarm} to ${afterLong} over 10,000 requests`);
    assert.ok(afterLong - base <= MAX_CORE_SLOTS, `the core retains ${afterLong - base} slots after 10,100 requests`);
    assert.equal(last.bytes, warm.bytes, 'buffer bytes held by the connections changed over 10,000 requests');
  });

  it('on the device server, a boot, a connection and a refused socket each cost at most a fixed number of slots', async () => {
    const device = new XsnapWorker({ name: 'xs-heap-device' });
    await device.start();
    try {
      await device.evaluate(await bundleForXs(ROOT, 'tests/xs/device-entry.ts'));
      const send = async (bytes: number[]): Promise<number> => (await device.command(new Uint8Array(bytes))).meter.currentHeapCount;
      await send([0x42, 0]); // 'B': module, Api, server (their first allocations before the baseline)
      await send([0x5a]); // 'Z': dropped
      const empty = await device.liveSlots();
      await send([0x42, 0]);
      const booted = await device.liveSlots();
      assert.ok(booted - empty <= MAX_DEVICE_BOOT_SLOTS, `a booted device retains ${booted - empty} slots (bound ${MAX_DEVICE_BOOT_SLOTS})`);
      await send([0x50]); // 'P': 4 connections, each holding half a request
      const held = await device.liveSlots();
      const perConnection = (held - booted) / 4;
      assert.ok(perConnection > 0 && perConnection <= MAX_DEVICE_CONNECTION_SLOTS,
        `a device connection holds ${perConnection} slots (bound ${MAX_DEVICE_CONNECTION_SLOTS})`);
      const before = await send([]);
      const after = await send([0x58]); // 'X': 4 more sockets, refused, their 503s waiting
      const allocated = (after - before) / 4;
      const perRefused = ((await device.liveSlots()) - held) / 4;
      assert.ok(perRefused > 0 && perRefused <= MAX_REFUSED_SOCKET_SLOTS,
        `a refused socket holds ${perRefused} slots while its answer waits (bound ${MAX_REFUSED_SOCKET_SLOTS})`);
      assert.ok(allocated > 0 && allocated <= MAX_REFUSAL_SLOTS, `a refusal allocates ${allocated} slots (bound ${MAX_REFUSAL_SLOTS})`);
      const read = JSON.parse(Buffer.from((await device.command(new Uint8Array([0x59]))).reply).toString('latin1')) as { refused: string };
      assert.equal(read.refused, '503,503,503,503', 'each refused socket is answered 503 once it reads');
      await send([0x42, 0]); // booted again, after every path above has made what it makes once
      const rebooted = await device.liveSlots();
      await send([0x43]); // 'C': 4 keep-alive connections, each idle after one answer
      const idle = ((await device.liveSlots()) - rebooted) / 4;
      assert.ok(idle > 0 && idle <= MAX_DEVICE_IDLE_CONNECTION_SLOTS,
        `an idle device connection holds ${idle} slots (bound ${MAX_DEVICE_IDLE_CONNECTION_SLOTS})`);
    } finally {
      await device.close();
    }
  });

  it('a connection, an answer and a streaming scrape or description each cost at most a fixed number of slots', async () => {
    await command([0x53, 0]); // a fresh Api alone (the HAL is made before)
    const apiAlone = await liveSlots();
    await command([0x53, 4]);
    const perConnection = ((await liveSlots()) - apiAlone) / 4;
    assert.ok(perConnection > 0 && perConnection <= MAX_CONNECTION_SLOTS, `a connection holds ${perConnection} slots (bound ${MAX_CONNECTION_SLOTS})`);
    const one = new Uint8Array([0x51, 0, 0, 0, 1]); // 'Q': one request, no report
    for (let i = 0; i < 20; i++) await worker.command(one);
    const growth: number[] = [];
    let last = (await worker.command(one)).meter.currentHeapCount;
    for (let i = 0; i < 40; i++) {
      const now = (await worker.command(one)).meter.currentHeapCount;
      growth.push(now - last);
      last = now;
    }
    growth.sort((a, b) => a - b);
    const perRequest = growth[growth.length >> 1]; // the median skips the samples with a collection
    assert.ok(perRequest > 0 && perRequest <= MAX_REQUEST_SLOTS, `an answered GET allocates ${perRequest} slots (bound ${MAX_REQUEST_SLOTS})`);
    const idle = await liveSlots();
    for (const [name, kind] of [['GET /metrics', 0x6d], ['the description', 0x64]] as const) {
      const started = await command([0x54, kind]);
      const held = (await liveSlots()) - idle;
      const done = await command([0x46]);
      assert.ok(done.written > started.written + 4096, `${name} ran to its end after the socket drained`);
      assert.ok(held > 0 && held <= MAX_STREAM_SLOTS, `a connection streaming ${name} holds ${held} slots more (bound ${MAX_STREAM_SLOTS})`);
    }
  });

  it('no piece of the description allocates more than a fixed number of slots, its longest list of values included', async () => {
    await command([0x53, 0]);
    await command([0x54, 0x64]); // the description starts; its socket is full
    const piece = new Uint8Array([0x50]); // 'P': the socket drains once, one piece is made
    let last = (await worker.command(piece)).meter.currentHeapCount;
    let most = 0;
    let pieces = 1;
    for (; pieces < 500; pieces++) {
      const r = await worker.command(piece);
      const now = r.meter.currentHeapCount;
      most = Math.max(most, now - last); // a collection inside a piece shows as less, never more
      last = now;
      if (new Uint8Array(r.reply)[0] === 0) break;
    }
    assert.ok(pieces > 10 && pieces < 500, `the description ran to its end in ${pieces} pieces`);
    assert.ok(most > 0 && most <= MAX_DESCRIPTION_PIECE_SLOTS, `a piece of the description allocates up to ${most} slots (bound ${MAX_DESCRIPTION_PIECE_SLOTS})`);
  });
});
