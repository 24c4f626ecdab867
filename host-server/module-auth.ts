// How the host server sends a module the token the operator gave for it (--tokens): as HTTP Digest,
// never in clear (host-server/digest-client.ts), one nonce per module server and token. A request
// goes with Digest once a nonce is known; before that it goes without a credential, and a 401 with a
// Digest challenge (nothing ran) is answered once more with Digest, as is a 401 that says the nonce
// sent was stale. A body over PROBE_BODY_BYTES (a firmware image) is never sent twice: an empty request of
// the same method and target asks for the nonce first (refused 401 before anything runs). A module
// whose 401 offers only Bearer (a firmware from before Digest) is sent Bearer.

import { DigestClient, offersBearer } from './digest-client';

export const PROBE_BODY_BYTES = 4096;

/** What an attempt comes back with: an answer's status and headers, neither when there was no answer. */
interface Attempted {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
}

/** One attempt: `authorization` null for none; `empty`: the body left out (Content-Length 0). */
export type Attempt<R> = (authorization: string | null, empty: boolean) => Promise<R>;

export class ModuleAuth {
  private readonly clients = new Map<string, DigestClient>();

  /** Sends `method` on `target` with `token` ('' for none), through `attempt`. */
  async send<R>(token: string, method: string, target: string, bodyBytes: number, attempt: Attempt<R>): Promise<R> {
    if (token === '') return attempt(null, false);
    let client = this.clients.get(token);
    if (!client) this.clients.set(token, (client = new DigestClient(token)));
    if (!client.ready && bodyBytes > PROBE_BODY_BYTES) {
      const probe = (await attempt(null, true)) as Attempted;
      if (probe.status === 401) client.learn(probe.headers?.['www-authenticate']);
    }
    const sentDigest = client.ready;
    const first = await attempt(sentDigest ? client.authorization(method, target) : null, false);
    const answer: Attempted = first as Attempted;
    if (answer.status !== 401) return first;
    const challenge = answer.headers?.['www-authenticate'];
    // Once more only when the Digest sent was stale or there was none: a wrong token is not sent twice.
    if (client.learn(challenge)) return sentDigest && !client.stale ? first : attempt(client.authorization(method, target), false);
    if (offersBearer(challenge)) return attempt('Bearer ' + token, false);
    return first;
  }
}
