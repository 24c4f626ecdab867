// The envelope every API answer is wrapped in (DECISIONS.md §Responses):
// {"timestamp": "YYYY-MM-DDTHH:MM:SS.mmmZ", "request": {"endpointName", "parameters"}, "response"}

import { errorName } from './errors';

/** `parameters` and `response` are JSON text already. */
export function envelope(nowMs: number, endpointName: string, parameters: string, response: string): string {
  return '{"timestamp":"' + new Date(nowMs).toISOString() + '","request":{"endpointName":' +
    JSON.stringify(endpointName) + ',"parameters":' + parameters + '},"response":' + response + '}';
}

export function errorResponse(code: number, message: string): string {
  return '{"error":"' + errorName(code) + '","message":' + JSON.stringify(message) + '}';
}
