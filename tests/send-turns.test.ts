// The Pico W's write pacing (src/device/send-turns.ts): how many writes a socket may have in flight,
// alone and beside sockets waiting, and how turns go back.

import { strict as assert } from 'node:assert';
import { SendTurns, type TurnTaker } from '../src/device/send-turns';

/** A socket that takes a turn each time one comes, as DeviceTransport.drain does while it has bytes. */
class Taker implements TurnTaker {
  came = 0;
  constructor(private readonly turns: SendTurns, private readonly wants = 1) {}
  turnCame(): void {
    this.came++;
    for (let i = 0; i < this.wants && this.turns.take(this); i++);
  }
}

describe('SendTurns: writes in flight on a board with a small lwIP heap', () => {
  it('lets a socket alone take every turn, and no more', () => {
    const turns = new SendTurns(1460, 2);
    const a = new Taker(turns);
    assert.equal(turns.take(a), true);
    assert.equal(turns.take(a), true, 'a second segment in flight: its peer acknowledges two at once');
    assert.equal(turns.take(a), false);
  });

  it('gives a socket that holds a turn no second one while another waits', () => {
    const turns = new SendTurns(1460, 2);
    const [a, b, c] = [new Taker(turns), new Taker(turns), new Taker(turns)];
    assert.equal(turns.take(a), true);
    assert.equal(turns.take(b), true);
    assert.equal(turns.take(c), false); // c waits
    assert.equal(turns.take(a), false, 'a holds one and c waits');
    turns.give(b);
    assert.equal(c.came, 1);
    assert.ok(turns.holds(c));
  });

  it('hands every turn a socket held to the sockets waiting when it gives them back', () => {
    const turns = new SendTurns(1460, 2);
    const a = new Taker(turns);
    turns.take(a);
    turns.take(a);
    const [b, c] = [new Taker(turns), new Taker(turns)];
    assert.equal(turns.take(b), false);
    assert.equal(turns.take(c), false);
    turns.give(a);
    assert.equal(turns.holds(a), false);
    assert.deepEqual([b.came, c.came], [1, 1]);
  });

  it('puts back only the turn of a write that did not happen', () => {
    const turns = new SendTurns(1460, 2);
    const a = new Taker(turns);
    turns.take(a);
    turns.take(a);
    turns.putBack(a);
    assert.ok(turns.holds(a), 'the first write is still in flight');
    const b = new Taker(turns);
    assert.equal(turns.take(b), true);
    assert.equal(turns.take(b), false);
  });
});
