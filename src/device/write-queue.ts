// The front of a transport's answer queue (src/device/transport.ts) as one socket write. Paced (the Pico
// W), a turn is one segment in flight until the client acknowledges it, so the small pieces a stream
// makes (a /metrics family, a description piece) are joined into one write of up to a segment's bytes:
// one round trip for them all instead of one each. Unpaced, the front array is written as it is.

/** The bytes of the next write: the front array, or (`join`) the front arrays copied into one, at most `room` bytes. */
export function frontBytes(queue: Uint8Array[], room: number, join: boolean): Uint8Array {
  const head = queue[0];
  if (head.length >= room) return head.length === room ? head : head.subarray(0, room);
  if (!join || queue.length === 1) return head;
  let n = 0;
  for (let i = 0; i < queue.length && n < room; i++) n += queue[i].length;
  const out = new Uint8Array(n < room ? n : room);
  let at = 0;
  for (let i = 0; at < out.length; i++) {
    const piece = queue[i];
    const take = Math.min(piece.length, out.length - at);
    out.set(take === piece.length ? piece : piece.subarray(0, take), at);
    at += take;
  }
  return out;
}

/** Drop the first `n` bytes written from the queue's front. */
export function dropFront(queue: Uint8Array[], n: number): void {
  while (n > 0) {
    const head = queue[0];
    if (head.length <= n) {
      n -= head.length;
      queue.shift();
    } else {
      queue[0] = head.subarray(n);
      n = 0;
    }
  }
}
