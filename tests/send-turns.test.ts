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
  it('gives a socket one turn at a time, even alone: a client that vanishes holds one segment of the heap, not all', () => {
    const turns = new SendTurns(1460, 2);
    const a = new Taker(turns);
    assert.equal(turns.take(a), true);
    assert.equal(turns.take(a), false);
    assert.equal(turns.take(new Taker(turns)), true, 'the other turn is still free');
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

  it('hands the turn a socket held to the first socket waiting when it gives it back', () => {
    const turns = new SendTurns(1460, 2);
    const [a, b, c, d] = [new Taker(turns), new Taker(turns), new Taker(turns), new Taker(turns)];
    turns.take(a);
    turns.take(b);
    assert.equal(turns.take(c), false);
    assert.equal(turns.take(d), false);
    turns.give(a);
    assert.equal(turns.holds(a), false);
    assert.deepEqual([c.came, d.came], [1, 0]);
  });

  it('puts back only the turn of a write that did not happen', () => {
    const turns = new SendTurns(1460, 2);
    const [a, b, c] = [new Taker(turns), new Taker(turns), new Taker(turns)];
    turns.take(a);
    turns.take(b);
    assert.equal(turns.take(c), false);
    turns.putBack(a);
    assert.equal(turns.holds(a), false, 'the write that failed holds nothing');
    assert.ok(turns.holds(b), 'the other write is still in flight');
    assert.equal(c.came, 1);
  });

  it('offers a socket whose write the heap refused a turn again at the next acknowledgement or tick, not at once', () => {
    const turns = new SendTurns(1460, 2);
    /** A socket whose writes lwIP's heap refuses while `full`, as DeviceTransport.drain then does. */
    class Refused extends Taker {
      full = true;
      override turnCame(): void {
        this.came++;
        if (turns.take(this) && this.full) turns.refused(this);
      }
    }
    const a = new Taker(turns);
    const r = new Refused(turns);
    turns.take(a);
    r.turnCame();
    assert.equal(turns.holds(r), false, 'the refused write holds no turn');
    assert.equal(turns.isWaiting(r), true);
    turns.give(a); // an acknowledgement: the refused socket tries once, and waits on
    assert.equal(r.came, 2);
    assert.equal(turns.isWaiting(r), true);
    turns.resume(); // the server's tick
    assert.equal(r.came, 3);
    r.full = false;
    turns.resume();
    assert.ok(turns.holds(r), 'written once the heap had room');
    assert.equal(turns.isWaiting(r), false);
  });
});
