// The emulated ESP32's memory through QEMU's gdbstub (-gdb tcp:…), with the few packets of the GDB
// remote protocol a runner needs: `?` (QEMU stops the machine while a debugger is attached), `m
// addr,length` (read), `M addr,length:bytes` (write) and `D` (detach: the machine runs on). A session
// attaches, does its work and detaches, so the board stops only for the milliseconds of the exchange.
// The watchdog test writes a hang into the XS task's loop with it; make esp32-emu-figures reads the heaps.
import * as net from 'node:net';

export type Ask = (packet: string) => Promise<string>;

const checksum = (s: string): string => ([...s].reduce((a, c) => a + c.charCodeAt(0), 0) & 0xff).toString(16).padStart(2, '0');

/** Attaches to the gdbstub on `port` (127.0.0.1), runs `work` with the machine stopped, then detaches. */
export function withGdb<T>(port: number, work: (ask: Ask) => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    s.setNoDelay(true); // one small packet after another: Nagle's wait would cost ~40 ms each
    const waiting: { packet: string; answered: (reply: string) => void }[] = [];
    let buf = '';
    s.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      for (let m = /\$([^#]*)#[0-9a-f]{2}/.exec(buf); m; m = /\$([^#]*)#[0-9a-f]{2}/.exec(buf)) {
        buf = buf.slice(m.index + m[0].length);
        s.write('+');
        // QEMU may report the stop a second time (`T05…`) after answering `?`: only `?` takes a stop reply
        if (/^[ST][0-9a-f]{2}/.test(m[1]) && waiting[0]?.packet !== '?') continue;
        waiting.shift()?.answered(m[1]);
      }
    });
    const ask: Ask = (packet) => new Promise((answered) => {
      waiting.push({ packet, answered });
      s.write(`$${packet}#${checksum(packet)}`);
    });
    s.on('error', reject);
    s.setTimeout(30_000, () => { s.destroy(); reject(new Error('gdbstub: no answer in 30 s')); });
    s.on('connect', () => {
      void (async () => {
        try {
          await ask('?');
          const value = await work(ask);
          await ask('D');
          s.end();
          resolve(value);
        } catch (e) {
          s.destroy();
          reject(e as Error);
        }
      })();
    });
  });
}

/** `length` bytes at `address`, read in pieces a gdbstub packet holds. */
export async function readMemory(ask: Ask, address: number, length: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let at = 0; at < length; at += 512) {
    const n = Math.min(512, length - at);
    const reply = await ask(`m${(address + at).toString(16)},${n.toString(16)}`);
    if (!/^([0-9a-f]{2})+$/.test(reply) || reply.length !== 2 * n) throw new Error(`gdbstub: reading 0x${(address + at).toString(16)}: ${reply}`);
    pieces.push(Buffer.from(reply, 'hex'));
  }
  return Buffer.concat(pieces);
}

/** Writes `bytes` at `address`; the gdbstub's reply (`OK` for a write done). */
export function pokeMemory(port: number, address: number, bytes: Buffer): Promise<string> {
  return withGdb(port, (ask) => ask(`M${address.toString(16)},${bytes.length}:${bytes.toString('hex')}`));
}

/** The address of a symbol (global or local) in an ELF32 file (its .symtab). */
export function symbolAddress(elf: Buffer, name: string): number | undefined {
  const shoff = elf.readUInt32LE(0x20);
  const shentsize = elf.readUInt16LE(0x2e);
  const shnum = elf.readUInt16LE(0x30);
  const section = (k: number): { type: number; offset: number; size: number; link: number; entsize: number } => {
    const at = shoff + k * shentsize;
    return { type: elf.readUInt32LE(at + 4), offset: elf.readUInt32LE(at + 16), size: elf.readUInt32LE(at + 20),
      link: elf.readUInt32LE(at + 24), entsize: elf.readUInt32LE(at + 36) };
  };
  for (let k = 0; k < shnum; k++) {
    const symtab = section(k);
    if (symtab.type !== 2) continue; // SHT_SYMTAB
    const strtab = section(symtab.link);
    for (let at = symtab.offset; at < symtab.offset + symtab.size; at += symtab.entsize) {
      const nameAt = strtab.offset + elf.readUInt32LE(at);
      const end = elf.indexOf(0, nameAt);
      if (elf.toString('latin1', nameAt, end) === name) return elf.readUInt32LE(at + 4);
    }
  }
  return undefined;
}
