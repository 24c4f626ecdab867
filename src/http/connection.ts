// One HTTP connection, transport-agnostic: fed bytes, it hands response bytes to its Transport.
// Keep-alive, pipelining (requests answered in order as they complete), Connection: close and
// HTTP/1.0 (close after the answer), Expect: 100-continue, the head and body deadlines. After an
// error that breaks framing the connection answers and closes. A streamed body (src/http/streamed-body.ts)
// goes out a piece at a time: an event stream at each timer tick, a finite one (chunked) whenever the
// transport drains (drained()) or ticks, while its backlog is low; requests pipelined behind it wait
// their turn, as behind an answer made later (HttpResponse.pending: a host server's forwarding). It
// tells a ConnectionSlots policy whether it is idle, holds a partial request or answers, and since when.

import { BODY_FOLLOWS, COMPLETE, FAILED, RequestParser } from './request-parser';
import type { PendingAnswer, RequestHandler } from './request';
import { NOTHING_NOW, STREAM_ENDED, StreamedBody } from './streamed-body';
import { ConnectionShared, sendAnswer, type ConnectionOptions, type Transport } from './connection-shared';
import { CONTINUE } from './response-writer';
import { joined } from './byte-buffer';
import { BODY_TIMEOUT_MS, HEADER_TIMEOUT_MS } from './http-limits';
import { SLOT_ANSWERING, SLOT_IDLE, SLOT_PARTIAL, type SlotHolder } from './connection-slots';

export type { RequestHandler, Transport, ConnectionOptions };
export { ConnectionShared };

/** Request bytes held while a finite stream is being sent or an answer is pending; more closes the connection after it. */
const HELD_MAX = 8192;

// Connection.flags bits (one number rather than a slot each).
const CLOSED = 1, ANSWERED = 2, ANSWERING = 4, PUMPING = 8;

export class Connection implements SlotHolder {
  private readonly parser: RequestParser;
  private readonly shared: ConnectionShared;
  /** Where its answers go (the device notes whose answer a reset waits for). */
  readonly transport: Transport;
  /** When the present request's first byte came, then when its head ended: its head's, then its body's deadline counts from here. */
  private phaseAt = 0;
  /** Slot age: the present request's first byte, or the accept time before the first request. */
  private requestSince: number;
  /** The last bytes read or answer sent (idle since then). */
  private lastActivity: number;
  /** The streamed body being sent after its head, made when an answer streams. */
  private body: StreamedBody | null = null;
  /** Request bytes that came while a finite stream was being sent or an answer was pending (a copy), or null. */
  private held: Uint8Array | null = null;
  /** The answer the handler will make later (never on a module), or null. */
  private pending: PendingAnswer | null = null;
  /** CLOSED | ANSWERED (a complete request has been answered) | ANSWERING | PUMPING. */
  private flags = 0;

  /** `options.shared` (a server's) or the other options: a connection on its own makes its own. */
  constructor(handler: RequestHandler, transport: Transport, options?: ConnectionOptions) {
    const shared = options?.shared ?? new ConnectionShared(handler, options);
    this.shared = shared;
    this.transport = transport;
    this.parser = new RequestParser(shared.codec, shared.framing);
    this.lastActivity = shared.now();
    this.requestSince = this.lastActivity;
    this.parser.peer = options?.peer ?? '';
    this.parser.router = handler.bodySink ? handler : null; // a handler that streams some bodies
  }

  get closed(): boolean {
    return (this.flags & CLOSED) !== 0;
  }

  /** Bytes of request buffers held now (an idle connection holds at most 512). */
  get bytesHeld(): number {
    return this.parser.bytesHeld;
  }

  /** Feed any split of the byte stream, bytes[0, end); none of it is kept after the call (held input is copied). */
  receive(bytes: Uint8Array, end = bytes.length): void {
    const parser = this.parser;
    let offset = 0;
    this.lastActivity = this.shared.now();
    if (this.body || this.pending) {
      if (this.pending || this.body!.ends) this.hold(bytes, 0, end); // read once the answer has gone
      return; // an event stream's connection reads nothing more
    }
    while (!(this.flags & CLOSED) && !this.body && offset < end) {
      const wasStarted = parser.started;
      const result = parser.feed(bytes, offset, end);
      offset += parser.consumed;
      if (!wasStarted && parser.started) {
        this.phaseAt = this.lastActivity;
        if (this.flags & ANSWERED) this.requestSince = this.lastActivity;
      }
      if (result === FAILED) {
        this.fail(parser.errorStatus, parser.errorMessage);
      } else if (result === COMPLETE) {
        this.answer(null);
        if (this.pending) break; // what follows waits for its answer
      } else if (result === BODY_FOLLOWS) {
        this.phaseAt = this.lastActivity;
        if (parser.expectContinue) this.transport.write(this.shared.codec.encode(CONTINUE));
      }
    }
    const body = this.body as StreamedBody | null; // answer() may have made it
    if (offset < end && (this.pending || (body && body.ends))) this.hold(bytes, offset, end);
  }

  /** The transport took bytes (a drain): a finite stream makes its next pieces now, not at the tick. */
  drained(): void {
    if (this.body && this.body.ends && !(this.flags & CLOSED)) this.pumpStream();
  }

  /** The peer closed its side: nothing more will come. */
  end(): void {
    this.close();
  }

  /**
   * Call now and then (the transport's timer, about once a second). Answers 408 and closes when a
   * request head has been arriving for longer than the header timeout, or its body has not all come
   * within the body timeout of the head's end; closes a keep-alive connection idle between requests
   * for the idle timeout. True when it closed.
   */
  checkTimeout(): boolean {
    const parser = this.parser;
    if (this.flags & CLOSED || this.pending) return false; // a pending answer keeps its own deadline
    const now = this.shared.now();
    const body = this.body;
    if (body && body.ends && now - body.progressAt >= this.shared.idleTimeoutMs) {
      this.close(); // a client that stopped reading the description gives its slot back
      return true;
    }
    if (body) return this.pumpStream(); // the same timer ticks event streams
    if (parser.inBody) { // a streamed body (a firmware image) must keep coming, not all come at once
      if (now - (parser.sink ? this.lastActivity : this.phaseAt) < BODY_TIMEOUT_MS) return false;
      this.fail(408, `request body not received within ${BODY_TIMEOUT_MS / 1000} s of its ${parser.sink ? 'last bytes' : 'head'}`);
      return true;
    }
    if (parser.started) {
      if (now - this.phaseAt < HEADER_TIMEOUT_MS) return false;
      this.fail(408, `request head not received within ${HEADER_TIMEOUT_MS / 1000} s`);
      return true;
    }
    if (now - this.lastActivity < this.shared.idleTimeoutMs) return false;
    this.close();
    return true;
  }

  /** SlotHolder: answering, a partial request (a first request counts from the accept), or idle. */
  slotState(): number {
    // An event stream is an answer still being sent, a streamed body one being taken: busy, not idle.
    if (this.flags & ANSWERING || this.body || this.parser.sink) return SLOT_ANSWERING;
    return !(this.flags & ANSWERED) || this.parser.started ? SLOT_PARTIAL : SLOT_IDLE;
  }

  slotSince(): number {
    return this.slotState() === SLOT_IDLE ? this.lastActivity : this.requestSince;
  }

  /** SlotHolder: give the slot to a newcomer. A partial request gets 408; an idle connection closes. */
  evict(): void {
    if (this.flags & CLOSED) return;
    if (this.slotState() === SLOT_PARTIAL) this.fail(408, 'request not completed in time; its connection slot went to a new client');
    else this.close();
  }

  /** Answer with an error and close without reading a request (503 at the cap); Retry-After when `retryAfterS` > 0. */
  refuse(status: number, message: string, retryAfterS?: number): void {
    this.fail(status, message, retryAfterS);
  }

  /**
   * The handler's answer to the parsed request, or the pending one now ready (`later`): sent, then its
   * body streamed, or the next request read, or the connection closed.
   */
  private answer(later: PendingAnswer | null): void {
    const parser = this.parser;
    const res = this.shared.response;
    res.reset();
    if (later) later.fill(res);
    else {
      this.flags |= ANSWERING;
      this.shared.handler.handle(parser, res);
      const pending = res.pending;
      if (pending) {
        res.pending = null;
        this.pending = pending;
        return pending.wait(() => this.resume());
      }
    }
    if (!parser.keepAlive) res.close = true;
    const headOnly = parser.method === 'HEAD';
    if (res.stream && res.streamEnds) {
      // HTTP/1.0 has no chunked coding: the body ends with the connection.
      if (parser.versionMinor === 0) res.close = true;
      else res.chunked = true;
    }
    this.send(headOnly);
    this.flags = (this.flags & ~ANSWERING) | ANSWERED; // lastActivity, the read's time, is when it was answered
    if (res.stream && !headOnly) {
      this.body = new StreamedBody(this.transport, this.shared.codec, res, this.lastActivity);
      if (this.body.ends) this.pumpStream(); // a finite stream starts at once
      return;
    }
    if (res.stream) { res.stream.close(); res.stream = null; } // HEAD: the head alone
    if (res.close) this.close();
    else parser.reset();
  }

  /** The pending answer is ready: made and sent now, then what came meanwhile is read. Later: more of its stream came. */
  private resume(): void {
    const pending = this.pending;
    if (this.flags & CLOSED || !pending) return this.drained();
    this.pending = null;
    this.lastActivity = this.shared.now();
    this.answer(pending);
    if (!this.body) this.readHeld();
  }

  /** An event stream's tick (it never ends on its own), or as much of a finite stream as fits. */
  private pumpStream(): boolean {
    let body = this.body!;
    const now = this.shared.now;
    if (!body.ends) {
      body.tick(now());
      return false;
    }
    if (this.flags & PUMPING) return false; // a stream started by held input is pumped by the loop below
    this.flags |= PUMPING;
    try {
      // this.body, not `body`: held input answered after the end may have started the next stream.
      while ((body = this.body!) && body.ends && !(this.flags & CLOSED) && body.hasRoom()) {
        const step = body.next(now());
        if (step === STREAM_ENDED) this.afterStream();
        else if (step === NOTHING_NOW) break;
        else body.progressAt = this.lastActivity = now();
      }
    } catch {
      this.close(); // a piece failed after the head went out: only closing tells the client
    } finally {
      this.flags &= ~PUMPING;
    }
    return (this.flags & CLOSED) !== 0;
  }

  /** A finite stream has ended: read on (what was held first), or close. */
  private afterStream(): void {
    this.lastActivity = this.shared.now();
    const closes = this.body!.closes;
    this.body = null;
    if (closes) return this.close();
    this.parser.reset();
    this.readHeld();
  }

  private readHeld(): void {
    const held = this.held;
    this.held = null;
    if (held) this.receive(held);
  }

  /** Keep request bytes that came during a finite stream or a pending answer (bounded: beyond it, close after the answer). */
  private hold(bytes: Uint8Array, from: number, end: number): void {
    const next = joined(this.held, bytes, from, end, HELD_MAX);
    if (next) this.held = next;
    else if (this.pending) this.parser.keepAlive = false; // as if its request had said Connection: close
    else this.body!.closes = true;
  }

  private fail(status: number, message: string, retryAfterS?: number): void {
    const res = this.shared.response;
    res.reset();
    this.shared.handler.fail(status, message, this.parser.target, res);
    res.close = true;
    res.retryAfter = retryAfterS ?? 0;
    this.send(false);
    this.close();
  }

  private send(headOnly: boolean): void {
    sendAnswer(this.shared, this.transport, headOnly);
  }

  private close(): void {
    if (this.flags & CLOSED) return;
    this.flags |= CLOSED;
    if (this.pending) this.pending.cancel();
    this.pending = null;
    const body = this.body;
    this.body = null;
    if (body) body.release();
    this.held = null;
    this.parser.reset(); // give the buffers back now; the object may linger with its socket
    this.transport.close();
  }
}
Object.freeze(Connection.prototype);

