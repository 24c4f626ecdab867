// The Moddable SDK's http Server (modules/network/http/http.js) answering every request with one fixed
// answer: `globalThis.anchorBody` with the headers our server sends with it. handleCommand(msg): msg
// holds the request bytes; a new connection reads it and answers (the SDK's Server closes after each
// answer), and the reply is empty; an empty msg replies with what the last connection was sent.

import { Server } from 'sdk-http';
import { Listener } from 'socket';

const server = new Server({ port: 80 });
server.callback = function (message) {
  if (message === Server.prepareResponse) {
    return { headers: ['content-type', 'application/json', 'cache-control', 'no-store'], body: globalThis.anchorBody };
  }
  return undefined;
};

let last = null;
const encoder = new TextEncoder();
globalThis.handleCommand = (msg) => {
  if (msg.byteLength === 0) return encoder.encode(last ? last.output() : '').buffer;
  last = Listener.current.connect(new Uint8Array(msg));
  return new ArrayBuffer(0);
};
