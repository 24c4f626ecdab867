// What an authenticated PUT costs the device core under XS (tests/xs/auth-entry.ts), for
// tests/xs-heap.test.ts (its bounds) and tools/xs-heap-figures.mjs (its figures): computrons and slots
// allocated (medians between collections) of a PUT with Bearer and of one with HTTP Digest (a new
// count of one nonce each time, made by the host server's Digest client), and what the SHA-256
// stand-in's own calls cost inside the Digest figure (crypt's Digest is native on a module).

import * as path from 'node:path';
import { bundleForXs } from './bundle';
import { XsnapWorker } from './xsnap-worker';
import { DigestClient } from '../../host-server/digest-client';

const HB = '/api/v1/device/system/0/hbinterval';
const put = (auth: string | null): Buffer => Buffer.from(`PUT ${HB} HTTP/1.1\r\nHost: 192.168.1.50\r\nContent-Length: 12\r\n` +
  (auth ? `Authorization: ${auth}\r\n` : '') + '\r\n{"value":20}', 'latin1');

export interface Cost { compute: number; slots: number }
export interface AuthCosts { bearer: Cost; digest: Cost; standIn: Cost }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function authCosts(root: string = path.resolve(__dirname, '../../..'), samples = 100): Promise<AuthCosts> {
  const worker = new XsnapWorker({ name: 'xs-auth-cost' });
  await worker.start();
  try {
    await worker.evaluate(await bundleForXs(root, 'tests/xs/auth-entry.ts'));
    const send = (op: number, bytes: Uint8Array = new Uint8Array(0)) => worker.command(Buffer.concat([Buffer.of(op), bytes]));
    const answer = async (bytes: Uint8Array) => JSON.parse(Buffer.from((await send(0x50, bytes)).reply).toString('latin1'));
    await send(0x53);
    const refused = await answer(put(null));
    const client = new DigestClient('t0ken', 'admin');
    if (refused.status !== 401 || !client.learn(refused.challenge)) throw new Error(`no Digest challenge: ${JSON.stringify(refused)}`);
    const cost = async (op: number, make: () => Uint8Array): Promise<Cost> => {
      for (let i = 0; i < 20; i++) await send(op, make());
      const compute: number[] = [];
      const growth: number[] = [];
      let last = (await send(op, make())).meter;
      for (let i = 0; i < samples; i++) {
        const m = (await send(op, make())).meter;
        compute.push(m.compute);
        growth.push(m.currentHeapCount - last.currentHeapCount);
        last = m;
      }
      return { compute: median(compute), slots: median(growth) };
    };
    const kinds = { bearer: () => put('Bearer t0ken'), digest: () => put(client.authorization('PUT', HB)) };
    for (const [name, make] of Object.entries(kinds)) {
      const check = await answer(make());
      if (check.status !== 200) throw new Error(`the ${name} PUT answered ${check.status}`);
    }
    return { bearer: await cost(0x51, kinds.bearer), digest: await cost(0x51, kinds.digest), standIn: await cost(0x48, () => new Uint8Array(0)) };
  } finally {
    await worker.close();
  }
}
