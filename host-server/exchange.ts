// One request on a module's connection pool through undici's dispatcher interface: the answer read
// whole (refused once it passes a size no legitimate answer reaches), or an event stream handed on
// as it comes. Every forwarded request goes through here, so it makes no stream, promise chain or
// header object of its own for a finite answer: the chunks as undici delivers them, joined once.

import { PassThrough, type Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

export type Exchanged =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { kind: 'stream'; status: number; headers: IncomingHttpHeaders; body: Readable }
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
  private relay: PassThrough | null = null;

  constructor(private readonly done: (r: Exchanged) => void, private readonly streamable: boolean, private readonly max: number) {}

  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.headers = headers;
    const type = headers['content-type'];
    if (!this.streamable || status !== 200 || typeof type !== 'string' || !type.startsWith('text/event-stream')) return;
    const relay = new PassThrough();
    this.relay = relay;
    // The client went away (the relay destroyed): the module's stream is closed too.
    relay.once('close', () => { if (!controller.aborted) controller.abort(new Error('relay closed')); });
    this.done({ kind: 'stream', status, headers, body: relay });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const relay = this.relay;
    if (relay) {
      if (!relay.write(chunk)) {
        controller.pause();
        relay.once('drain', () => controller.resume());
      }
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
    if (this.relay) this.relay.destroy();
    else this.done(error instanceof TooLarge ? { kind: 'too-large' } : { kind: 'failed', error });
  }
}
