// lwIP's memory pools on the emulated board, read from its RAM: each pool's entries in use (its size
// less the length of its free list) and the TCP connections in TIME_WAIT. Where each pool lives comes
// from the image's .elf: `memp_NAME`, a const struct memp_desc in flash (lwip/src/include/lwip/priv/memp_priv.h:
// with MEMP_STATS 0 and no MEMP_OVERFLOW_CHECK, {u16 size; u16 num; u8 *base; struct memp **tab}), whose
// tab is `memp_tab_NAME`, the head of the free list (each free entry's first word is the next).
// tcp_tw_pcbs chains the TIME_WAIT pcbs by their `next`, which follows IP_PCB (two ip4 addresses and
// four bytes: offset 12 without IPv6, as the Pico build of lwipopts has it).
import { elfSymbols } from './board-memory.mjs';

const POOLS = ['TCP_PCB', 'TCP_PCB_LISTEN', 'TCP_SEG', 'PBUF', 'PBUF_POOL', 'UDP_PCB', 'SYS_TIMEOUT', 'IGMP_GROUP'];
const PCB_NEXT = 12;

/** The pools of `elf` whose descriptor and free list it has: name -> {desc, tab}, plus tcp_tw_pcbs. */
export function poolsOf(elf) {
  const table = elfSymbols(elf);
  const pools = {};
  for (const name of POOLS) {
    if (table.has(`memp_${name}`) && table.has(`memp_tab_${name}`)) pools[name] = { desc: table.get(`memp_${name}`), tab: table.get(`memp_tab_${name}`) };
  }
  return { pools, timeWait: table.get('tcp_tw_pcbs') };
}

/** {NAME: entries in use, ..., timeWait: pcbs in TIME_WAIT}; a pool whose descriptor does not match its free list is left out. */
export function readPools(mcu, { pools, timeWait }) {
  const sram = (p) => !(p & 3) && p >= 0x20000000 && p < 0x20042000;
  const out = {};
  for (const [name, { desc, tab }] of Object.entries(pools)) {
    const num = mcu.readUint16(desc + 2);
    if (mcu.readUint32(desc + 8) >>> 0 !== tab) continue; // not the layout above
    let free = 0;
    for (let p = mcu.readUint32(tab) >>> 0; p && sram(p) && free <= num; p = mcu.readUint32(p) >>> 0) free++;
    out[name] = num - free;
  }
  if (timeWait !== undefined) {
    let n = 0;
    for (let p = mcu.readUint32(timeWait) >>> 0; p && sram(p) && n < 64; p = mcu.readUint32(p + PCB_NEXT) >>> 0) n++;
    out.timeWait = n;
  }
  return out;
}
