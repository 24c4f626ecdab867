// The envelope every API answer is wrapped in (DECISIONS.md §Responses):
// {"timestamp": "YYYY-MM-DDTHH:MM:SS.mmmZ", "request": {"endpointName", "parameters"}, "response"}

import { errorName } from './errors';

// The timestamp's "YYYY-MM-DDTHH:MM:SS." changes once a second: it is formatted then and reused.
let cachedSecond = NaN;
let cachedPrefix = '';

export function timestamp(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  const ms = nowMs - second * 1000;
  return cachedPrefix + (ms < 10 ? '00' : ms < 100 ? '0' : '') + Math.floor(ms) + 'Z';
}

/** A request path as a JSON string: paths are printable ASCII, so only " and \ need escaping. */
function pathJson(path: string): string {
  return path.indexOf('"') < 0 && path.indexOf('\\') < 0 ? '"' + path + '"' : JSON.stringify(path);
}

/** `parameters` and `response` are JSON text already. */
export function envelope(nowMs: number, endpointName: string, parameters: string, response: string): string {
  return '{"timestamp":"' + timestamp(nowMs) + '","request":{"endpointName":' + pathJson(endpointName) +
    ',"parameters":' + parameters + '},"response":' + response + '}';
}

export function errorResponse(code: number, message: string): string {
  return '{"error":"' + errorName(code) + '","message":' + JSON.stringify(message) + '}';
}
