// The Digest challenge of the emulated board (tests/pico-emu-entropy.test.ts), run in its namespace:
// a PUT without credentials, answered 401, and the nonce of its `WWW-Authenticate: Digest` line.
import { request, result, say, waitServing } from './board-client';

async function main(): Promise<void> {
  const served = await waitServing(240);
  const a = await request('PUT', '/api/v1/device/system/0/hbinterval', '{"value":20}');
  const challenge = String(a.headers['www-authenticate'] ?? '');
  const nonce = /nonce="([0-9a-f]+)"/.exec(challenge)?.[1] ?? '';
  say(`PUT without credentials: ${a.status}, nonce ${nonce}`);
  result({ served, status: a.status, nonce });
}

void main();
