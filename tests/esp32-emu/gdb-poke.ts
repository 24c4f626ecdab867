// Writes bytes into the emulated ESP32's memory through QEMU's gdbstub (-gdb tcp:…), speaking the GDB
// remote protocol's three packets it needs: `?` (QEMU stops the machine while a debugger is attached),
// `M addr,length:bytes`, and `D` (detach: the machine runs on). The watchdog test uses it to hang the
// XS task's loop where a firmware bug would.
import * as net from 'node:net';

const checksum = (s: string): string => ([...s].reduce((a, c) => a + c.charCodeAt(0), 0) & 0xff).toString(16).padStart(2, '0');

export function pokeMemory(port: number, address: number, bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    const replies: string[] = [];
    let buf = '';
    const commands = ['?', `M${address.toString(16)},${bytes.length}:${bytes.toString('hex')}`, 'D'];
    const next = (): void => {
      const c = commands.shift();
      if (c === undefined) { s.end(); resolve(replies); return; }
      s.write(`$${c}#${checksum(c)}`);
    };
    s.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      for (let m = /\$([^#]*)#[0-9a-f]{2}/.exec(buf); m; m = /\$([^#]*)#[0-9a-f]{2}/.exec(buf)) {
        buf = buf.slice(m.index + m[0].length);
        s.write('+');
        replies.push(m[1]);
        next();
      }
    });
    s.on('connect', next);
    s.on('error', reject);
    s.setTimeout(30_000, () => { s.destroy(); reject(new Error(`gdbstub: no answer (${replies.join(' ')})`)); });
  });
}

/** The address of a global function in an ELF32 file (its .symtab). */
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
