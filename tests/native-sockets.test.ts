// The project's native socket files, compiled on the host against fakes of lwIP and XS that behave as
// the SDK lines they cite (tests/native/), with clients a lab network has: one that aborts in the
// middle of an answer (its FIN crosses our segment, its RST follows), scanners that connect and reset,
// more clients at once than lwIP has pcbs, and mDNS traffic. The same harnesses run the SDK's own files
// too, which shows each fake reproduces the defect the project's file is there for.
import { strict as assert } from 'node:assert';
import { build, missingSdk, projectFile, run, sdkFile, SDK_TCP, SDK_UDP, type Run } from './native-harness';

const SCENARIOS = ['fin-rst', 'fin-rst-linger', 'scanner', 'scanner-after-read', 'null-accept'];

/** Nothing a chip would break on: no pcb freed twice, used after its free, shared, or reached unlocked. */
function assertSafe(r: Run, scenario: string): void {
  assert.equal(r.signal, null, `${scenario}: died (${r.signal})\n${r.output}`);
  assert.ok(r.counts, `${scenario}: no counts\n${r.output}`);
  for (const key of ['doubleFrees', 'callsOnFreed', 'sharedPcbs', 'staleCallbacks', 'unlocked']) {
    assert.equal(r.counts[key], 0, `${scenario}: ${key}\n${r.output}`);
  }
}

/** heap-full on the project's files: one write refused ("would block"), no error, no trace, the next written. */
const HEAP_FULL_SAFE = { refused: 1, wouldBlock: 1, socketErrors: 0, traced: 0, laterRefused: 0 };
/** A newcomer refused with ERR_ABRT is aborted by the callback itself, as lwIP expects (tcp_in.c:958-965). */
/** lwIP offers a FIN with no data ahead of it once (tcp_in.c:531-545): the socket hears of it and the application closes it. */
const FIN_BEFORE_READ_SAFE = { socketErrors: 1, pcbOwned: 0, doubleFrees: 0, callsOnFreed: 0 };
const DEBUGGER_HOLDS_SAFE = { pcbsInUse: 0, doubleFrees: 0, callsOnFreed: 0 };
/** lwIP gives up on a connection (give-up-*): the socket hears of it, no freed pcb is written, read or closed again. */
const GIVE_UP = ['give-up-idle', 'give-up-read', 'give-up-write', 'give-up-output'];
const GIVE_UP_SAFE = { bytesRead: 80, socketErrors: 1, doubleFrees: 0, callsOnFreed: 0, staleCallbacks: 0, pcbsInUse: 0 };
/** The client's FIN reaches the socket as the application closes it: no message is left for a freed record. */
const CLOSE_FIN_SAFE = { staleMessages: 0, doubleFrees: 0, callsOnFreed: 0, staleCallbacks: 0 };
function closeFin(exe: string, ...args: string[]): Record<string, unknown> {
  const r = run(exe, 'close-fin', ...args);
  assert.equal(r.signal, null, r.output);
  return { ...r.counts, remembered: undefined };
}
/** lwIP runs inside new TCP({from}): a segment then is read by the new socket; a RST then is its error, and no freed pcb is touched. */
function assertAdoptSafe(exe: string, locked: boolean): void {
  const args = locked ? ['--locked'] : [];
  const data = run(exe, 'adopt-data', ...args).counts;
  assert.deepEqual({ ...data, pcbsInUse: undefined }, { bytesRead: 80, socketErrors: 0, doubleFrees: 0, callsOnFreed: 0, staleCallbacks: 0, pcbsInUse: undefined });
  const rst = run(exe, 'adopt-rst', ...args).counts;
  assert.deepEqual(rst, { bytesRead: 0, socketErrors: 1, doubleFrees: 0, callsOnFreed: 0, staleCallbacks: 0, pcbsInUse: 0 });
}

describe('native sockets on fakes of lwIP and XS', function () {
  this.timeout(60000);
  const why = missingSdk();
  before(function () {
    if (why) this.skip();
  });

  describe(`Pico W: native/socket-pico/tcp-locked.c${why ? ` (skipped: ${why})` : ''}`, function () {
    let exe = '';
    before(function () { exe = build('tcp-pico', 'tcp-scenarios.c', projectFile('native/socket-pico/tcp-locked.c')); });
    for (const scenario of SCENARIOS) {
      it(`${scenario}: no pcb freed twice or used after lwIP freed it, every lwIP call under the lock`, function () {
        assertSafe(run(exe, scenario, '--locked'), scenario);
      });
    }
    it('null-accept: lwIP\'s NULL pcbs are not queued', function () {
      const r = run(exe, 'null-accept');
      assert.ok(Number(r.counts?.nullAccepts) > 0, r.output); // the scenario did reach lwIP's NULL accept
    });
    it('early-request: a request sent before the accept is read at the accept, not at lwIP\'s next fast timer', function () {
      const r = run(exe, 'early-request', '--locked');
      assert.deepEqual(r.counts, { earlyRead: 80, lateRead: 0 }, r.output);
    });
    it('heap-full: a write lwIP\'s heap cannot take throws "would block" and the socket stays whole', function () {
      assert.deepEqual(run(exe, 'heap-full', '--locked').counts, HEAP_FULL_SAFE);
    });
    it('fin-before-read: a probe\'s FIN before a byte and before the accept is read reaches the socket, which closes', function () {
      assert.deepEqual(run(exe, 'fin-before-read', '--locked').counts, FIN_BEFORE_READ_SAFE);
    });
    it('adopt-data, adopt-rst: a segment or a RST while new TCP({from}) runs is the new socket\'s, and no freed pcb is touched', function () {
      assertAdoptSafe(exe, true);
    });
    it('give-up-*: lwIP frees a pcb on its own (idle, or just before a read\'s tcp_recved, a write, a tcp_output): nothing is done to it after', function () {
      for (const scenario of GIVE_UP) assert.deepEqual(run(exe, scenario, '--locked').counts, GIVE_UP_SAFE, scenario);
    });
    it('close-fin: lwIP tells the socket of the client\'s FIN as the application closes it, and no message outlives the record', function () {
      assert.deepEqual(closeFin(exe, '--locked'), { ...CLOSE_FIN_SAFE, remembered: undefined });
    });
    it('debugger-holds (debug build): a newcomer refused while xsbug holds the machine leaves no pcb held', function () {
      const debug = build('tcp-pico-debug', 'tcp-scenarios.c', projectFile('native/socket-pico/tcp-locked.c'), { defines: ['-DmxDebug=1'] });
      assert.deepEqual(run(debug, 'debugger-holds').counts, DEBUGGER_HOLDS_SAFE);
    });
  });

  describe(`ESP32: native/socket-esp32/tcp-esp32.c${why ? ` (skipped: ${why})` : ''}`, function () {
    let exe = '';
    before(function () { exe = build('tcp-esp32', 'tcp-scenarios.c', projectFile('native/socket-esp32/tcp-esp32.c'), { esp32: true }); });
    for (const scenario of SCENARIOS) {
      it(`${scenario}: no pcb freed twice or used after lwIP freed it`, function () {
        assertSafe(run(exe, scenario), scenario);
      });
    }
    it('early-request: a request sent before the accept is read at the accept', function () {
      assert.deepEqual(run(exe, 'early-request').counts, { earlyRead: 80, lateRead: 0 });
    });
    it('heap-full: a write lwIP\'s heap cannot take throws "would block" and the socket stays whole', function () {
      assert.deepEqual(run(exe, 'heap-full').counts, HEAP_FULL_SAFE);
    });
    it('fin-before-read: a probe\'s FIN before a byte and before the accept is read reaches the socket, which closes', function () {
      assert.deepEqual(run(exe, 'fin-before-read').counts, FIN_BEFORE_READ_SAFE);
    });
    it('adopt-data, adopt-rst: a segment or a RST while new TCP({from}) runs is the new socket\'s, and no freed pcb is touched', function () {
      assertAdoptSafe(exe, false);
    });
    it('give-up-*: lwIP frees a pcb on its own (idle, or just before a read\'s tcp_recved, a write, a tcp_output): nothing is done to it after', function () {
      for (const scenario of GIVE_UP) assert.deepEqual(run(exe, scenario).counts, GIVE_UP_SAFE, scenario);
    });
    it('close-fin: lwIP tells the socket of the client\'s FIN as the application closes it, and no message outlives the record', function () {
      assert.deepEqual(closeFin(exe), { ...CLOSE_FIN_SAFE, remembered: undefined });
    });
    it('debugger-holds (debug build): a newcomer refused while xsbug holds the machine leaves no pcb held', function () {
      const debug = build('tcp-esp32-debug', 'tcp-scenarios.c', projectFile('native/socket-esp32/tcp-esp32.c'), { esp32: true, defines: ['-DmxDebug=1'] });
      assert.deepEqual(run(debug, 'debugger-holds').counts, DEBUGGER_HOLDS_SAFE);
    });
  });

  describe(`the SDK's ${SDK_TCP} on the same fakes${why ? ` (skipped: ${why})` : ''}`, function () {
    for (const esp32 of [false, true]) {
      const chip = esp32 ? 'ESP32' : 'Pico W';
      it(`${chip}: frees a pcb twice after a FIN and a RST, uses scanners' freed pcbs, reads through a NULL pcb`, function () {
        const exe = build(`tcp-sdk-${chip}`, 'tcp-scenarios.c', sdkFile(SDK_TCP), { esp32 });
        assert.ok(Number(run(exe, 'fin-rst-linger').counts?.doubleFrees) > 0);
        assert.ok(Number(run(exe, 'scanner').counts?.callsOnFreed) > 0);
        assert.equal(run(exe, 'null-accept').signal, 'SIGSEGV');
      });
    }
    for (const esp32 of [false, true]) {
      it(`${esp32 ? 'ESP32' : 'Pico W'}: loses a segment that lands inside new TCP({from}) and writes into the pcb a RST there freed`, function () {
        const exe = build(`tcp-sdk-adopt-${esp32}`, 'tcp-scenarios.c', sdkFile(SDK_TCP), { esp32 });
        assert.equal(run(exe, 'adopt-data').counts?.bytesRead, 0);
        assert.ok(Number(run(exe, 'adopt-rst').counts?.callsOnFreed) > 0);
      });
    }
    for (const esp32 of [false, true]) {
      it(`${esp32 ? 'ESP32' : 'Pico W'}: writes the callbacks of a pcb lwIP gave up on into the freed pcb${esp32 ? ', and writes, tcp_recveds and outputs on it' : ''}`, function () {
        const exe = build(`tcp-sdk-give-up-${esp32}`, 'tcp-scenarios.c', sdkFile(SDK_TCP), { esp32 });
        assert.ok(Number(run(exe, 'give-up-idle').counts?.callsOnFreed) > 0);
        if (esp32) for (const scenario of ['give-up-read', 'give-up-write', 'give-up-output']) assert.ok(Number(run(exe, scenario).counts?.callsOnFreed) > 0, scenario);
      });
    }
    it('Pico W: leaves a request sent before the accept to lwIP\'s next fast timer (up to 250 ms)', function () {
      const exe = build('tcp-sdk-early', 'tcp-scenarios.c', sdkFile(SDK_TCP));
      assert.deepEqual(run(exe, 'early-request').counts, { earlyRead: 0, lateRead: 80 });
    });
    it('fails the socket, with only a trace, when lwIP\'s heap cannot take a write', function () {
      const exe = build('tcp-sdk-heap', 'tcp-scenarios.c', sdkFile(SDK_TCP));
      const r = run(exe, 'heap-full');
      assert.equal(r.counts?.traced, 1, r.output); // "tcp write failed"
      assert.equal(r.counts?.wouldBlock, 0, r.output);
      assert.ok(Number(r.counts?.socketErrors) > 0, r.output);
    });
    it('Pico W: calls lwIP outside its lock', function () {
      const exe = build('tcp-sdk-locks', 'tcp-scenarios.c', sdkFile(SDK_TCP));
      assert.ok(Number(run(exe, 'fin-rst', '--locked').counts?.unlocked) > 0);
    });
  });

  describe(`Pico W: native/socket-pico/udp-locked.c (the mDNS socket)${why ? ` (skipped: ${why})` : ''}`, function () {
    it('reads, answers and closes with every lwIP call under the lock', function () {
      const r = run(build('udp-pico', 'udp-scenarios.c', projectFile('native/socket-pico/udp-locked.c')));
      assert.equal(r.counts?.unlocked, 0, r.output);
    });
    it(`the SDK's ${SDK_UDP} frees each read's pbuf and sends outside the lock`, function () {
      const r = run(build('udp-sdk', 'udp-scenarios.c', sdkFile(SDK_UDP)));
      assert.ok(Number(r.counts?.unlocked) > 0, r.output);
    });
  });
});
