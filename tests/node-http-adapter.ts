// The API core behind Node's own http module (a `(req, res)` listener): for tools that already
// run a node:http server, and for handler tests with node-mocks-http. The simulator itself serves
// through host-sim/server.ts and the device's own HTTP core.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from '../src/api/api';
import { HttpResponse } from '../src/http/request';
import { BODY_MAX } from '../src/http/http-limits';
import { clientMark } from '../src/http/client-marks';

export function nodeHttpListener(api: Api): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    req.on('data', (chunk: Uint8Array) => {
      size += chunk.length;
      if (size <= BODY_MAX) chunks.push(chunk);
    });
    req.on('end', () => {
      const out = new HttpResponse();
      const target = req.url ?? '/';
      if (size > BODY_MAX) {
        api.fail(413, `body longer than ${BODY_MAX} bytes`, target, out);
      } else {
        const body = Buffer.concat(chunks);
        api.handle({
          method: req.method ?? 'GET',
          target,
          versionMinor: req.httpVersionMinor === 0 ? 0 : 1,
          host: header(req.headers.host),
          origin: header(req.headers.origin),
          secFetchSite: header(req.headers['sec-fetch-site']),
          authorization: header(req.headers.authorization),
          acceptEncoding: header(req.headers['accept-encoding']),
          ifNoneMatch: header(req.headers['if-none-match']),
          accessControlRequestMethod: header(req.headers['access-control-request-method']),
          clientMarks: Object.keys(req.headers).reduce((m, name) => m | clientMark(name, header(req.headers[name])), 0),
          peer: req.socket?.remoteAddress ?? '',
          body: () => body,
          bodyText: (codec) => codec.decode(body),
        }, out);
      }
      res.statusCode = out.status;
      if (out.stream && out.streamEnds) { // the device description: node:http chunks its pieces
        serveFinite(res, out, req.method === 'HEAD');
        api.afterResponse();
        return;
      }
      if (out.stream) { // an event stream, polled every 100 ms until the client goes
        serveStream(res, out);
        return;
      }
      if (out.status !== 204 && out.status !== 304) {
        res.setHeader('Content-Type', out.contentType);
        res.setHeader('Content-Length', out.bytes ? out.bytes.length : Buffer.byteLength(out.body));
      }
      if (out.allow) res.setHeader('Allow', out.allow);
      for (const line of out.extraHeaders.split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) res.setHeader(line.slice(0, colon), line.slice(colon + 1).trim());
      }
      if (req.method === 'HEAD' || out.status === 204 || out.status === 304) res.end();
      else res.end(out.bytes ? Buffer.from(out.bytes) : out.body);
      api.afterResponse();
    });
  };
}

/** A finite stream: every piece, written as it is made (node:http frames them chunked). */
function serveFinite(res: ServerResponse, out: HttpResponse, headOnly: boolean): void {
  const stream = out.stream!;
  res.setHeader('Content-Type', out.contentType);
  copyHeaders(res, out.extraHeaders);
  if (!headOnly) {
    for (let piece = stream.poll(Date.now()); piece !== null; piece = stream.poll(Date.now())) res.write(piece);
  }
  stream.close();
  res.end();
}

function copyHeaders(res: ServerResponse, lines: string): void {
  for (const line of lines.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) res.setHeader(line.slice(0, colon), line.slice(colon + 1).trim());
  }
}

/** The head and first event of a text/event-stream, then the stream's ticks. */
function serveStream(res: ServerResponse, out: HttpResponse): void {
  const stream = out.stream!;
  res.setHeader('Content-Type', out.contentType);
  for (const line of out.extraHeaders.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) res.setHeader(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  res.write(out.body);
  const timer = setInterval(() => {
    const text = stream.poll(Date.now());
    if (text) res.write(text);
  }, 100);
  res.on('close', () => {
    clearInterval(timer);
    stream.close();
  });
}

/** A request header as the core sees it: one string, '' when absent. */
function header(v: string | string[] | undefined): string {
  return v === undefined ? '' : Array.isArray(v) ? v.join(', ') : v;
}
