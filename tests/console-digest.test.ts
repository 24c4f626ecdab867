// web/digest.js, the console's own SHA-256 and Digest (a page on plain HTTP has no crypto.subtle): its
// hash against node:crypto for lengths around every padding boundary and for UTF-8 text, and its
// Authorization header taken by the shared access control.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { HB, putHb, readHb, simWithApi } from './access-helpers';

type DigestPage = {
  sha256(text: string): string;
  digestChallenge(header: string): { nonce: string; stale: boolean; nc: number } | null;
  digestAuthorization(challenge: object, password: string, method: string, uri: string): string;
};

function loadDigestJs(): DigestPage {
  const code = fs.readFileSync(path.resolve(__dirname, '../../web/digest.js'), 'utf8');
  const context = vm.createContext({ TextEncoder });
  vm.runInContext(code + '\n;globalThis.page = { sha256, digestChallenge, digestAuthorization };', context);
  return (context as unknown as { page: DigestPage }).page;
}

describe('console: web/digest.js', () => {
  const page = loadDigestJs();

  it('hashes like node:crypto at every length up to 300 bytes, and UTF-8 text', () => {
    for (let n = 0; n <= 300; n++) {
      const text = randomBytes(n).toString('latin1').replace(/[^\x20-\x7e]/g, 'x');
      assert.equal(page.sha256(text), createHash('sha256').update(text).digest('hex'), `length ${n}`);
    }
    for (const text of ['µV ≤ 5 °C', '🙂'.repeat(40)]) assert.equal(page.sha256(text), createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('answers a module\'s challenge with a digest the access control takes, the count going up', () => {
    const { api } = simWithApi({ token: 's3cret', auth: 'digest' });
    const r = putHb(api, 1);
    const challenge = page.digestChallenge(r.headers['www-authenticate'])!;
    assert.ok(challenge, r.headers['www-authenticate']);
    for (const v of [25, 26]) {
      const auth = page.digestAuthorization(challenge, 's3cret', 'PUT', HB);
      assert.equal(putHb(api, v, { auth }).status, 200, auth);
    }
    assert.equal(readHb(api), 26);
    assert.equal(putHb(api, 27, { auth: page.digestAuthorization(challenge, 'wrong', 'PUT', HB) }).status, 401);
  });
});
