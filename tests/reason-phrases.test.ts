// Every status the server sends carries its RFC 9110 reason phrase in the status line. The module and
// the simulator share this table, 406 included (a module asked for the OpenAPI document without gzip).
import { strict as assert } from 'node:assert';
import { reasonPhrase } from '../src/http/response-writer';

/** Status -> RFC 9110 §15 reason phrase, for each status this server answers with. */
const RFC9110: Record<number, string> = {
  100: 'Continue', 200: 'OK', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 408: 'Request Timeout',
  409: 'Conflict', 413: 'Content Too Large', 414: 'URI Too Long', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
};

describe('reason phrases', () => {
  for (const status in RFC9110) {
    it(`${status} ${RFC9110[status]}`, () => assert.equal(reasonPhrase(Number(status)), RFC9110[status]));
  }
  it('an unlisted status still gets a phrase', () => assert.equal(reasonPhrase(299), 'Unknown'));
});
