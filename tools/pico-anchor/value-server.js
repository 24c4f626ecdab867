// The Moddable SDK's own http Server (modules/network/http, as its examples/network/http/httpserver
// uses it), answering
//   GET or PUT /value   a JSON body of VALUE_BYTES bytes, the size of the module's answer to a GET of one
//                       value (a PUT's body is read whole first)
//   GET /bytes/N        N bytes (at most 65,536), for "the same bytes" as a document of the module
// The anchors of the Pico W (./main.js) and of the ESP32 (tools/esp32-anchor/main.js) serve it on port 80.
import { Server } from 'http';

export const VALUE_BYTES = 176;
const PIECE = 'x'.repeat(1024);
const VALUE = `{"value":"${'0'.repeat(VALUE_BYTES - 12)}"}`;

function sizeOf(path) {
  if (path === '/value') return -1;
  const n = path.startsWith('/bytes/') ? Number(path.slice(7)) : NaN;
  return n >= 0 && n <= 65536 ? n : undefined;
}

export function startValueServer(port) {
  const server = new Server({ port });
  server.callback = function (message, value) {
    switch (message) {
      case Server.status:
        this.size = sizeOf(value);
        break;
      case Server.headersComplete:
        return String; // a PUT's body, read whole
      case Server.prepareResponse:
        if (this.size === undefined) return { status: 404, headers: ['content-type', 'text/plain'], body: 'no\n' };
        if (this.size < 0) return { headers: ['content-type', 'application/json', 'cache-control', 'no-store'], body: VALUE };
        this.left = this.size;
        return { headers: ['content-type', 'application/octet-stream', 'content-length', this.size], body: true };
      case Server.responseFragment: {
        const n = Math.min(value, this.left, PIECE.length);
        this.left -= n;
        return n ? PIECE.slice(0, n) : undefined;
      }
    }
    return undefined;
  };
  return server;
}
