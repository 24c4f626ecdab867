// The lockstep runner asks the Pico's PIO blocks whether they run only after a call that can make an
// idle block run (tools/pico-emu/lockstep.mjs pioBlocks). Against rp2040js itself, no firmware: state
// machines that stall on a FIFO, wait on an IRQ or are enabled, restarted and given instructions by
// register writes, in a random order; after every step the marked answer must be what asking every
// machine gives.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { RP2040 } from 'rp2040js';

interface Blocks { active(): boolean; step(cycles: number): void }
const TOOL = path.resolve(__dirname, '../../tools/pico-emu/lockstep.mjs');

const PIO0 = 0x50200000;
const CTRL = 0x000, TXF0 = 0x010, RXF2 = 0x028, IRQ_FORCE = 0x034, INSTR_MEM0 = 0x048;
const smInstr = (sm: number): number => 0x0d8 + sm * 0x18;
const PULL_BLOCK = 0x80a0, WAIT_IRQ0 = 0x20c0, PUSH_BLOCK = 0x8020, JMP = (to: number): number => to;

/** What asking every machine of both blocks says. */
const naive = (chip: RP2040): boolean => chip.pio.some((p) => !p.stopped && p.machines.some((m) => m.enabled && !m.waiting));

describe('emulated Pico W: the PIO blocks asked only when something can have started them', () => {
  let pioBlocks: (chip: RP2040) => Blocks;
  before(async () => { ({ pioBlocks } = (await import(TOOL)) as { pioBlocks: typeof pioBlocks }); });

  it('answers as asking every machine does, through stalls, IRQ waits, enables, restarts and executed instructions', () => {
    const chip = new RP2040();
    const blocks = pioBlocks(chip);
    const write = (offset: number, value: number): void => chip.writeUint32(PIO0 + offset, value);
    // SM0 pulls (stalls on an empty TX FIFO), SM1 waits for IRQ 0, SM2 pushes (stalls on a full RX FIFO)
    // (each program a loop: the jump after it back to its start; memory is zero, `jmp 0`, elsewhere)
    for (const [at, instruction] of [[0, PULL_BLOCK], [4, WAIT_IRQ0], [5, JMP(4)], [8, PUSH_BLOCK], [9, JMP(8)]]) {
      write(INSTR_MEM0 + at * 4, instruction);
    }
    let seed = 12345;
    const random = (n: number): number => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; };
    const seen = { active: 0, idle: 0, woken: 0 };
    for (let op = 0; op < 20000; op++) {
      switch (random(8)) {
        case 0: write(TXF0, op); break;
        case 1: { // a read of a full RX FIFO lets SM2 go on
          const stalled = chip.pio[0].machines[2].waiting;
          chip.readUint32(PIO0 + RXF2);
          if (stalled && !chip.pio[0].machines[2].waiting) seen.woken++;
          break;
        }
        case 2: write(IRQ_FORCE, 1); break;
        case 3: write(CTRL, random(8) | (random(4) === 0 ? random(8) << 4 : 0)); break; // enables, sometimes restarts
        case 4: write(smInstr(1), JMP(4)); break;
        case 5: write(smInstr(2), JMP(8)); break;
        default: break; // steps only
      }
      for (let k = random(4); k >= 0; k--) {
        const active = blocks.active();
        assert.equal(active, naive(chip), `after operation ${op}`);
        if (active) { blocks.step(1); seen.active++; } else seen.idle++;
      }
    }
    assert.ok(seen.active > 1000 && seen.idle > 1000 && seen.woken > 100, JSON.stringify(seen));
  });
});
