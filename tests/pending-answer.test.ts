// An answer made later than its request handler returns (HttpResponse.pending, as the host server
// forwards), through a whole Connection: what comes meanwhile waits its turn and is answered in order,
// the slot counts as answering, a close cancels it, a finite stream it sets is sent as it comes; and
// the host server's relayed event stream (host-server/relayed-stream.ts) with its back-pressure.
import { strict as assert } from 'node:assert';
import type { Dispatcher } from 'undici';
import { Connection } from '../src/http/connection';
import { SLOT_ANSWERING, SLOT_IDLE } from '../src/http/connection-slots';
import type { HttpRequest, HttpResponse, PendingAnswer, RequestHandler } from '../src/http/request';
import { RelayedStream, HIGH_WATER } from '../host-server/relayed-stream';
import { splitResponses } from './helpers';

const get = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: d\r\n${extra}\r\n`;

/** A handler that answers /later/... later (each waits for release()), anything else at once. */
class LaterHandler implements RequestHandler {
  readonly waiting: { path: string; ready: () => void; fill: (res: HttpResponse) => void; cancelled: boolean }[] = [];

  handle(req: HttpRequest, res: HttpResponse): void {
    const path = req.target;
    if (!path.startsWith('/later')) {
      res.body = `{"now":"${path}"}`;
      return;
    }
    const entry = { path, ready: (): void => undefined, fill: (r: HttpResponse): void => { r.body = `{"later":"${path}"}`; }, cancelled: false };
    const pending: PendingAnswer = {
      wait: (ready) => { entry.ready = ready; },
      fill: (r) => entry.fill(r),
      cancel: () => { entry.cancelled = true; },
    };
    this.waiting.push(entry);
    res.pending = pending;
  }

  fail(status: number, message: string, _target: string, res: HttpResponse): void {
    res.status = status;
    res.body = JSON.stringify({ message });
  }

  afterResponse(): void {}
}

function connection(handler: RequestHandler): { c: Connection; out: () => string; closed: () => boolean } {
  let out = '';
  let closed = false;
  const c = new Connection(handler, { write: (b) => { out += Buffer.from(b).toString('latin1'); }, close: () => { closed = true; } });
  return { c, out: () => out, closed: () => closed };
}

const bodies = (out: string): string[] => splitResponses(out).map((r) => r.body);

describe('an answer made later (HttpResponse.pending)', () => {
  it('holds what is pipelined behind it, then answers everything in order', () => {
    const h = new LaterHandler();
    const { c, out } = connection(h);
    c.receive(Buffer.from(get('/later/1') + get('/now/2') + get('/later/3')));
    assert.equal(out(), '', 'nothing is answered before the first answer is ready');
    assert.equal(c.slotState(), SLOT_ANSWERING);
    c.receive(Buffer.from(get('/now/4')));
    assert.equal(h.waiting.length, 1, 'requests behind it are not read yet');
    h.waiting[0].ready();
    assert.deepEqual(bodies(out()), ['{"later":"/later/1"}', '{"now":"/now/2"}']);
    assert.equal(h.waiting.length, 2);
    h.waiting[1].ready();
    assert.deepEqual(bodies(out()), ['{"later":"/later/1"}', '{"now":"/now/2"}', '{"later":"/later/3"}', '{"now":"/now/4"}']);
    assert.equal(c.slotState(), SLOT_IDLE);
  });

  it('closes after it when its request said Connection: close, reading nothing more', () => {
    const h = new LaterHandler();
    const { c, out, closed } = connection(h);
    c.receive(Buffer.from(get('/later/1', 'Connection: close\r\n') + get('/now/2')));
    h.waiting[0].ready();
    assert.deepEqual(bodies(out()), ['{"later":"/later/1"}']);
    assert.equal(closed(), true);
  });

  it('is cancelled when the connection closes first, and is not answered', () => {
    const h = new LaterHandler();
    const { c, out } = connection(h);
    c.receive(Buffer.from(get('/later/1')));
    c.end();
    assert.equal(h.waiting[0].cancelled, true);
    h.waiting[0].ready();
    assert.equal(out(), '');
  });

  it('closes after it when more than 8 KiB is pipelined behind it', () => {
    const h = new LaterHandler();
    const { c, out, closed } = connection(h);
    c.receive(Buffer.from(get('/later/1')));
    for (let i = 0; i < 100; i++) c.receive(Buffer.from(get('/now/' + 'x'.repeat(80))));
    h.waiting[0].ready();
    assert.equal(bodies(out()).length, 1);
    assert.match(out(), /\r\nConnection: close\r\n/);
    assert.equal(closed(), true);
  });

  it('sends a finite stream it sets chunked, each piece as it comes, then reads on', () => {
    const h = new LaterHandler();
    const { c, out } = connection(h);
    const pieces: (string | null)[] = [];
    c.receive(Buffer.from(get('/later/stream') + get('/now/after')));
    h.waiting[0].fill = (r) => {
      r.contentType = 'text/event-stream';
      r.stream = { poll: () => (pieces.length ? pieces.shift()! : ''), close: () => undefined };
      r.streamEnds = true;
    };
    h.waiting[0].ready();
    assert.match(out(), /^HTTP\/1\.1 200 OK\r\nContent-Type: text\/event-stream\r\nTransfer-Encoding: chunked\r\n/);
    pieces.push('data: 1\n\n');
    h.waiting[0].ready(); // more has come
    assert.ok(out().endsWith('\r\n\r\n9\r\ndata: 1\n\n'), JSON.stringify(out()));
    pieces.push('data: 2\n\n', null);
    h.waiting[0].ready();
    const r = splitResponses(out());
    assert.deepEqual(r.map((x) => x.body), ['data: 1\n\ndata: 2\n\n', '{"now":"/now/after"}']);
  });
});

/** undici's controller, as far as a relayed stream uses it. */
function fakeController(): Dispatcher.DispatchController & { log: string[] } {
  const log: string[] = [];
  return {
    log, aborted: false, paused: false, reason: null,
    pause() { log.push('pause'); }, resume() { log.push('resume'); }, abort() { log.push('abort'); (this as { aborted: boolean }).aborted = true; },
  } as unknown as Dispatcher.DispatchController & { log: string[] };
}

describe('a relayed event stream (host server)', () => {
  it('pauses the module past its high water mark and resumes it once the client took the text', () => {
    const ctl = fakeController();
    const s = new RelayedStream(ctl);
    let wakes = 0;
    s.wake = () => { wakes++; };
    s.push(Buffer.from('x'.repeat(HIGH_WATER)));
    assert.deepEqual(ctl.log, []);
    s.push(Buffer.from('data: é\n\n'));
    assert.deepEqual(ctl.log, ['pause']);
    assert.equal(wakes, 2);
    assert.equal(s.poll(), 'x'.repeat(HIGH_WATER) + 'data: é\n\n');
    assert.deepEqual(ctl.log, ['pause', 'resume']);
    assert.equal(s.poll(), '');
  });

  it('keeps a UTF-8 character split across chunks whole, ends after the rest, and aborts nothing once ended', () => {
    const ctl = fakeController();
    const s = new RelayedStream(ctl);
    const e = Buffer.from('é');
    s.push(e.subarray(0, 1));
    assert.equal(s.poll(), '');
    s.push(e.subarray(1));
    s.end();
    assert.equal(s.poll(), 'é');
    assert.equal(s.poll(), null);
    let released = 0;
    s.whenClosed(() => { released++; });
    s.close();
    s.close();
    assert.deepEqual([ctl.log, released], [[], 1]);
  });

  it('aborts the module\'s stream when the client goes, and fails the client\'s when the module\'s breaks', () => {
    const ctl = fakeController();
    const s = new RelayedStream(ctl);
    let released = 0;
    s.whenClosed(() => { released++; });
    s.close();
    assert.deepEqual([ctl.log, released], [['abort'], 1]);
    const broken = new RelayedStream(fakeController());
    broken.fail(new Error('reset'));
    assert.throws(() => broken.poll(), /reset/);
  });
});
