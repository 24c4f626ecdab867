// The envelope every API answer is wrapped in (docs/api.md §Answers):
// {"timestamp": "YYYY-MM-DDTHH:MM:SS.mmmZ", "request": {"endpointName", "parameters"}, "response"}

import { errorName } from '../../../hal/kit/errors';

/**
 * Formats envelope timestamps. Its "YYYY-MM-DDTHH:MM:SS." changes once a second: it is formatted
 * then and reused. An object per Api (not module state, so the module can be preloaded).
 */
export class TimestampClock {
  private second = NaN;
  private prefix = '';

  format(nowMs: number): string {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.prefix = new Date(second * 1000).toISOString().slice(0, -4);
    }
    const ms = nowMs - second * 1000;
    return this.prefix + (ms < 10 ? '00' : ms < 100 ? '0' : '') + Math.floor(ms) + 'Z';
  }
}
Object.freeze(TimestampClock.prototype);

/** A request path as a JSON string: paths are printable ASCII, so only " and \ need escaping. */
function pathJson(path: string): string {
  return path.indexOf('"') < 0 && path.indexOf('\\') < 0 ? '"' + path + '"' : JSON.stringify(path);
}

/**
 * `timestamp` from a TimestampClock; `parameters` and `response` are JSON text already. `plainPath`:
 * the path is known to need no escaping (an operation's path, which resolved to names of the route
 * table, digits and a hex serial), so it is not searched for characters to escape.
 */
export function envelope(timestamp: string, endpointName: string, parameters: string, response: string, plainPath = false): string {
  return '{"timestamp":"' + timestamp + '","request":{"endpointName":' + (plainPath ? '"' + endpointName + '"' : pathJson(endpointName)) +
    ',"parameters":' + parameters + '},"response":' + response + '}';
}

export function errorResponse(code: number, message: string): string {
  return '{"error":"' + errorName(code) + '","message":' + JSON.stringify(message) + '}';
}
