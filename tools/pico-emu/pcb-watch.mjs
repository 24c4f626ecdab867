// Watches lwIP's TCP connections (struct tcp_pcb) on the emulated board for use after free: at the
// entry of tcp_free and of the calls the SDK's sockets make on a connection (tcp_write, tcp_output,
// tcp_recved, tcp_close, tcp_abort, tcp_recv, tcp_sent, tcp_err), the connection in r0 is looked up in
// lwIP's free list of TCP pcbs (memp_tab_TCP_PCB: each free element's first word is the next). One
// found there is a pcb freed and still used, or freed twice: printed with the backtrace, once per place.
// PICO_EMU_PCB_WATCH=1 with run.mjs --figures or --memory-every.
import { execFileSync } from 'node:child_process';
import { backtrace } from './backtrace.mjs';

const CALLS = ['tcp_free', 'tcp_write', 'tcp_output', 'tcp_recved', 'tcp_close', 'tcp_abort', 'tcp_recv', 'tcp_sent', 'tcp_err', 'tcp_arg'];

export function watchPcbs(sim, elf, stamp) {
  const symbols = new Map();
  for (const line of execFileSync('arm-none-eabi-nm', [elf], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')) {
    const [addr, , name] = line.split(' ');
    if (name) symbols.set(name, parseInt(addr, 16));
  }
  const head = symbols.get('memp_tab_TCP_PCB');
  const entries = new Map(CALLS.filter((c) => symbols.has(c)).map((c) => [symbols.get(c) & ~1, c]));
  const mcu = sim.rp2040;
  const core = mcu.core;
  const seen = new Set();
  const sram = (p) => !(p & 3) && p >= 0x20000000 && p < 0x20042000;
  let broken = false;
  const isFree = (pcb) => {
    for (let p = mcu.readUint32(head) >>> 0, n = 0; p && n < 64; p = mcu.readUint32(p) >>> 0, n++) {
      if (!sram(p)) {
        if (!broken) console.log(`${stamp()} pcb-watch: lwIP's free list of TCP pcbs is broken (0x${p.toString(16)})`);
        broken = true;
        return false;
      }
      if (p === pcb) return true;
    }
    return false;
  };
  const execute = core.executeInstruction.bind(core);
  core.executeInstruction = () => {
    const call = entries.get(core.PC);
    if (call) {
      const pcb = core.registers[0] >>> 0;
      if (pcb && isFree(pcb)) {
        const where = `${call} ${(core.LR >>> 0).toString(16)}`;
        const report = !seen.has(where);
        seen.add(where);
        if (report) {
          console.log(`${stamp()} pcb-watch: ${call}(0x${pcb.toString(16)}) on a pcb lwIP has already freed; backtrace:`);
          for (const l of backtrace(mcu, elf, 128)) console.log(l);
        }
      }
    }
    return execute();
  };
}
