// One request on a module's connection pool through undici's dispatcher interface: the answer read
// whole (refused once it passes a size no legitimate answer reaches), or an event stream handed on
// as it comes. Every forwarded request goes through here, so it makes no stream, promise chain or
// header object of its own for a finite answer: the chunks as undici delivers them, joined once.

import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { RelayedStream } from './relayed-stream';

export type Exchanged =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { kind: 'stream'; status: number; headers: IncomingHttpHeaders; body: RelayedStream }
  | { kind: 'too-large' }
  | { kind: 'failed'; error: Error };

/** The reason an answer is aborted once it passes its size limit. */
class TooLarge extends Error {}

/** Receives one answer for `done`; `streamable`: an event stream (200, text/event-stream) is relayed. */
export class Exchange implements Dispatcher.DispatchHandler {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private relay: RelayedStream | null = null;

  constructor(private readonly done: (r: Exchanged) => void, private readonly streamable: boolean, private readonly max: number) {}

  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.headers = headers;
    const type = headers['content-type'];
    if (!this.streamable || status !== 200 || typeof type !== 'string' || !type.startsWith('text/event-stream')) return;
    const relay = new RelayedStream(controller); // the client gone, it aborts the module's stream
    this.relay = relay;
    this.done({ kind: 'stream', status, headers, body: relay });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const relay = this.relay;
    if (relay) {
      relay.push(chunk);
      return;
    }
    this.size += chunk.length;
    if (this.size > this.max) controller.abort(new TooLarge());
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.relay) {
      this.relay.end();
      return;
    }
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.done({ kind: 'answer', status: this.status, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.relay) this.relay.fail(error);
    else this.done(error instanceof TooLarge ? { kind: 'too-large' } : { kind: 'failed', error });
  }
}
