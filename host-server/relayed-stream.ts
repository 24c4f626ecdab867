// A module's event stream on its way to a client: undici hands the module's chunks in (push), the
// client's Connection takes them out as finite-stream pieces (poll: chunked) whenever its socket has
// room (src/http/streamed-body.ts). Back-pressure both ways: past HIGH_WATER characters waiting here
// the module's stream is paused, and resumed once the client has taken them. The client gone, or the
// stream done with (close): the module's request is aborted, and the module's connection given back.

import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';
import type { ResponseStream } from '../src/http/request';

/** Characters waiting for the client beyond which the module's stream is paused. */
export const HIGH_WATER = 16384;

export class RelayedStream implements ResponseStream {
  /** Called when more has come (or the end, or a failure): the Connection sends it on. */
  wake: () => void = () => undefined;
  private readonly decoder = new StringDecoder('utf8');
  private text = '';
  private ended = false;
  private failure: Error | null = null;
  private paused = false;
  private closed = false;
  private onClosed: (() => void) | null = null;

  constructor(private readonly controller: Dispatcher.DispatchController) {}

  /** `f` runs once, when the stream is closed (at once if it already is). */
  whenClosed(f: () => void): void {
    if (this.closed) f();
    else this.onClosed = f;
  }

  /** More of the module's stream (undici's onResponseData). */
  push(chunk: Buffer): void {
    this.text += this.decoder.write(chunk);
    if (this.text.length > HIGH_WATER && !this.paused) {
      this.paused = true;
      this.controller.pause();
    }
    this.wake();
  }

  /** The module ended its stream: what is left goes out, then the last chunk. */
  end(): void {
    this.text += this.decoder.end();
    this.ended = true;
    this.wake();
  }

  /** The module's stream broke off: the client's connection is closed, not ended as if complete. */
  fail(e: Error): void {
    this.failure = e;
    this.wake();
  }

  poll(): string | null {
    if (this.failure) throw this.failure;
    const text = this.text;
    if (text === '') return this.ended ? null : '';
    this.text = '';
    if (this.paused) {
      this.paused = false;
      this.controller.resume();
    }
    return text;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake = () => undefined;
    if (!this.ended && !this.failure && !this.controller.aborted) this.controller.abort(new Error('the client went away'));
    const f = this.onClosed;
    this.onClosed = null;
    if (f) f();
  }
}
