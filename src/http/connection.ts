// One HTTP connection, transport-agnostic: fed bytes, it hands response bytes to its Transport.
// Keep-alive, pipelining (requests answered in order as they complete), Connection: close and
// HTTP/1.0 (close after the answer), Expect: 100-continue, the header timeout. After an error that
// breaks framing the connection answers and closes.

import { RequestParser } from './request-parser';
import { HttpResponse, type RequestHandler } from './request';
import { CONTINUE, writeResponse } from './response-writer';
import { standardTextCodec, type TextCodec } from '../util/text';
import { HEADER_TIMEOUT_MS, IDLE_TIMEOUT_MS } from './limits';

export type { RequestHandler };

export interface Transport {
  write(bytes: Uint8Array): void;
  close(): void;
}

export interface ConnectionOptions {
  /** Millisecond clock for the timeouts; default Date.now. */
  now?: () => number;
  /** Close a connection idle between requests this long (ms); default IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** UTF-8 codec for the answers; default the engine's own (share one across connections). */
  codec?: TextCodec;
  /** The client's address (HttpRequest.peer), for per-client limits. */
  peer?: string;
}

export class Connection {
  private readonly parser = new RequestParser();
  private readonly response = new HttpResponse();
  private readonly handler: RequestHandler;
  private readonly transport: Transport;
  private readonly now: () => number;
  private readonly idleTimeoutMs: number;
  private readonly codec: TextCodec;
  private headStartedAt = 0;
  private lastActivity: number;
  private continueSent = false;
  closed = false;

  constructor(handler: RequestHandler, transport: Transport, options?: ConnectionOptions) {
    this.handler = handler;
    this.transport = transport;
    this.now = options?.now ?? Date.now;
    this.idleTimeoutMs = options?.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.codec = options?.codec ?? standardTextCodec();
    this.lastActivity = this.now();
    this.parser.peer = options?.peer ?? '';
  }

  /** Feed any split of the incoming byte stream. */
  receive(bytes: Uint8Array): void {
    const parser = this.parser;
    let offset = 0;
    this.lastActivity = this.now();
    while (!this.closed && offset < bytes.length) {
      const wasStarted = parser.started;
      const used = parser.feed(bytes, offset, bytes.length);
      offset += used;
      if (!wasStarted && parser.started) this.headStartedAt = this.lastActivity;
      if (parser.failed) {
        this.fail(parser.errorStatus, parser.errorMessage);
        return;
      }
      if (parser.complete) {
        this.answer();
      } else if (parser.expectContinue && !this.continueSent) {
        this.continueSent = true;
        this.transport.write(this.codec.encode(CONTINUE));
      } else if (used === 0) {
        break; // cannot happen: the parser always consumes or finishes; guard against a spin
      }
    }
  }

  /** The peer closed its side: nothing more will come. */
  end(): void {
    this.close();
  }

  /**
   * Call now and then (the transport's timer, about once a second). Answers 408 and closes when a
   * request head has been arriving for longer than the header timeout, or a body has stalled for
   * the idle timeout; closes a keep-alive connection idle between requests for as long. True when
   * it closed.
   */
  checkTimeout(): boolean {
    const parser = this.parser;
    if (this.closed || parser.complete) return false;
    const now = this.now();
    if (parser.started && !parser.inBody) {
      if (now - this.headStartedAt < HEADER_TIMEOUT_MS) return false;
      this.fail(408, `request head not received within ${HEADER_TIMEOUT_MS / 1000} s`);
      return true;
    }
    if (now - this.lastActivity < this.idleTimeoutMs) return false;
    if (parser.inBody) this.fail(408, `request body stalled for ${this.idleTimeoutMs / 1000} s`);
    else this.close();
    return true;
  }

  /** Answer with an error and close without reading a request (e.g. too many connections: 503). */
  refuse(status: number, message: string): void {
    this.fail(status, message);
  }

  private answer(): void {
    const parser = this.parser;
    const res = this.response;
    res.reset();
    this.handler.handle(parser, res);
    if (!parser.keepAlive) res.close = true;
    this.send(parser.method === 'HEAD');
    this.continueSent = false;
    this.lastActivity = this.now();
    if (res.close) this.close();
    else parser.reset();
  }

  private fail(status: number, message: string): void {
    const res = this.response;
    res.reset();
    this.handler.fail(status, message, this.parser.target, res);
    res.close = true;
    this.send(false);
    this.close();
  }

  private send(headOnly: boolean): void {
    this.transport.write(writeResponse(this.response, headOnly, this.codec));
    this.handler.afterResponse();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.transport.close();
  }
}
Object.freeze(Connection.prototype);
