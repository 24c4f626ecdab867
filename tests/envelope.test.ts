// The envelope's timestamp and path echo match what Date and JSON would give.
import { strict as assert } from 'node:assert';
import { envelope, TimestampClock } from '../src/api/values/envelope';

describe('envelope', () => {
  it('formats timestamps exactly as Date.toISOString, reusing the per-second prefix', () => {
    const clock = new TimestampClock();
    const timestamp = (t: number): string => clock.format(t);
    const times = [0, 1, 999, 1000, 1767225600123, 1767225600999, 1767225601000, -1, -1500, -62167219200000, 64060588799999];
    for (const t of times) assert.equal(timestamp(t), new Date(t).toISOString(), String(t));
    for (let t = 1767225600000; t < 1767225603000; t += 7) assert.equal(timestamp(t), new Date(t).toISOString());
  });

  it('echoes the path as a JSON string, escaping quotes and backslashes', () => {
    for (const p of ['/api/v1/device', '/a"b', '/a\\b']) {
      assert.equal(JSON.parse(envelope('1970-01-01T00:00:00.000Z', p, '{}', '{}')).request.endpointName, p);
    }
  });
});
