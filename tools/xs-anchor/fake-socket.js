// The Moddable SDK's "socket" module (Socket, Listener) as the SDK's http Server uses it, over bytes
// already in XS: reads are one native conversion (TextDecoder) and writes are kept as they come, as the
// real socket's are native C, so the figures are the Server's script. Used only by
// tools/bench-xs-anchor.mjs.

const decoder = new TextDecoder();

export class Listener {
  constructor(dictionary) {
    this.port = dictionary.port;
    this.pending = null;
    this.socket = null;
    Listener.current = this;
  }
  /** A client connects and sends `bytes` (a Uint8Array): the Server's callback accepts it, then reads. */
  connect(bytes) {
    this.pending = bytes;
    this.callback(this);
    const socket = this.socket;
    socket.callback(2, bytes.length);
    return socket;
  }
  close() {}
}

export class Socket {
  constructor(dictionary) {
    const listener = dictionary.listener;
    this.bytes = listener.pending;
    this.at = 0;
    this.written = [];
    this.closed = false;
    listener.socket = this;
  }
  read(type, until) {
    const left = this.bytes.length - this.at;
    if (type === undefined) return left;
    if (left === 0) return undefined;
    let end = this.bytes.length;
    if (typeof until === 'string') {
      const i = this.bytes.indexOf(until.charCodeAt(0), this.at);
      if (i >= 0) end = i + 1;
    } else if (typeof until === 'number' && until < left) end = this.at + until;
    const from = this.at;
    this.at = end;
    if (type === null) return undefined;
    const view = this.bytes.subarray(from, end);
    return type === String ? decoder.decode(view) : view.slice().buffer;
  }
  write(...parts) {
    if (parts.length === 0) return this.closed ? 0 : 2920; // two TCP segments of room
    for (let i = 0; i < parts.length; i++) this.written.push(parts[i]);
    return undefined;
  }
  /** What was written, as one Latin-1/ASCII string (for the bench's check, outside the measure). */
  output() {
    let text = '';
    for (const p of this.written) text += typeof p === 'string' ? p : decoder.decode(new Uint8Array(p));
    return text;
  }
  close() {
    this.closed = true;
  }
}
