// The front of a transport's queue as one write (src/device/write-queue.ts).

import { strict as assert } from 'node:assert';
import { dropFront, frontBytes } from '../src/device/write-queue';

const bytes = (...xs: number[]): Uint8Array => Uint8Array.from(xs);

describe('write-queue: the next write of a transport', () => {
  it('joins small pieces into one write of at most `room` bytes when paced', () => {
    const queue = [bytes(1, 2), bytes(3), bytes(4, 5, 6)];
    assert.deepEqual([...frontBytes(queue, 4, true)], [1, 2, 3, 4]);
    assert.deepEqual([...frontBytes(queue, 100, true)], [1, 2, 3, 4, 5, 6]);
  });

  it('writes the front array alone when unpaced, or when it fills the room by itself', () => {
    const queue = [bytes(1, 2, 3), bytes(4)];
    assert.equal(frontBytes(queue, 10, false), queue[0]);
    assert.deepEqual([...frontBytes(queue, 2, true)], [1, 2]);
  });

  it('drops what was written from the front, across arrays', () => {
    const queue = [bytes(1, 2), bytes(3), bytes(4, 5, 6)];
    dropFront(queue, 4);
    assert.deepEqual(queue.map((q) => [...q]), [[5, 6]]);
  });
});
