// Names the code of a Pico W image for the profile of make pico-emu-figures: each function of the ELF
// (arm-none-eabi-nm) with the object file the link map (xs_pico.map, beside the ELF) says it came from,
// and the part of the firmware that object belongs to. The release build has no debug lines for the
// SDKs' files, so the object file is what tells lwIP's tcp_out.c from the Wi-Fi driver's cyw43_ll.c.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Functions of the image, sorted by address: [start, end, name]. */
export function functionsOf(elf) {
  const out = [];
  for (const line of execFileSync('arm-none-eabi-nm', ['-S', '--defined-only', elf], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')) {
    const [addr, size, type, name] = line.split(' ');
    if (name && /^[tTwW]$/.test(type)) {
      const start = parseInt(addr, 16) & ~1;
      out.push([start, start + parseInt(size, 16), name]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Index of the function holding `pc` in `fns` (sorted), or -1. */
export function find(fns, pc) {
  let lo = 0, hi = fns.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pc < fns[mid][0]) hi = mid - 1;
    else if (pc >= fns[mid][1]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Input sections of the link map with an address: [start, end, object], sorted. */
function sectionsOf(mapFile) {
  if (!fs.existsSync(mapFile)) return [];
  const out = [];
  const lines = fs.readFileSync(mapFile, 'utf8').split('\n');
  const row = /^\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(\S+\.(?:o|a\(.*\)))\s*$/;
  for (let i = 0; i < lines.length; i++) {
    // " .text.name 0xADDR 0xSIZE object" on one line, or the name alone with the rest on the next
    const m = /^ \.\S+\s+(0x[0-9a-f]+\s+0x[0-9a-f]+\s+\S+)$/.exec(lines[i]) ? row.exec(` ${lines[i].replace(/^ \.\S+/, '')}`) : row.exec(lines[i]);
    if (!m) continue;
    const start = parseInt(m[1], 16), size = parseInt(m[2], 16);
    if (start >= 0x10000000 && size) out.push([start, start + size, m[3]]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

// The parts, by the object file's name (first match wins).
const PARTS = [
  ['GC (XS)', (o, f) => /\/xsMemory\.c\.o$/.test(o) && /^fx(Collect|Mark|Sweep|Compact|Grow|Allocate|NewChunk|FindFree)/.test(f)],
  ['XS interpreter', (o) => /\/lib\/xs[^/]*\.c\.o$/.test(o) && !/\/xs(Host|Platform)\.c\.o$/.test(o)],
  ['Moddable main loop (xsHost, timers)', (o) => /\/lib\/xs(Host|Platform)\.c\.o$|\/(brainstem-rest|pico-anchor)\/(xsmain|modTimer|timer|main)\.c\.o$/.test(o)],
  ['Wi-Fi driver (cyw43, gSPI, PIO)', (o) => /\/(cyw43_[a-z_]+|async_context_[a-z_]+|pio|dma)\.c\.o$/.test(o)],
  ['lwIP', (o) => /\/lib\/(tcp|tcp_in|tcp_out|ip4|ip4_addr|ip4_frag|ip|pbuf|mem|memp|etharp|ethernet|udp|igmp|dhcp|dns|inet_chksum|netif|timeouts|sys|def|init|icmp|raw|altcp[a-z_]*|lwip_nosys|acd|autoip)\.c\.o$/.test(o)],
  // The project's memcpy and byte reader stand in for the C library's and xsHost's: counted where those were.
  ['C library (memcpy, malloc, 64-bit division)', (o) => /\/(mem-copy-pico|byte-read-pico)\.c\.o$/.test(o)],
  ["the project's native code", (o) => /\/(tcp-locked|mdns-socket-pico|wdt-pico|floor)\.c\.o$/.test(o)],
  ['Moddable modules (sockets, net, io)', (o) => /\/brainstem-rest\/|\/pico-anchor\//.test(o)],
  ['USB console (TinyUSB)', (o) => /\/(tusb[a-z_]*|usbd[a-z_]*|dcd_rp2040|rp2040_usb[a-z_]*|cdc_device|stdio_usb[a-z_]*|vendor_device)\.c\.o$/.test(o)],
  ['C library (memcpy, malloc, 64-bit division)', (o) => /\.a\(|\/(malloc|mem_ops_aeabi\.S|pico_int64_ops_aeabi\.S|divider[a-z_]*\.S|bit_ops_aeabi\.S|printf)\.?[a-z]*\.?o$/.test(o)],
  ['pico-sdk runtime (time, IRQs, locks)', (o) => /\/lib\//.test(o)],
];

/** [start, end, name, part][] of the image, sorted by address. */
export function namedFunctions(elf) {
  const sections = sectionsOf(elf.replace(/\.elf$/, '.map'));
  return functionsOf(elf).map(([start, end, name]) => {
    const s = sections[find(sections, start)];
    const object = s ? s[2] : '';
    // a linker veneer (a long branch, mostly to the C library in RAM: memcpy, division) counts with it
    const part = /_veneer$/.test(name) ? 'C library (memcpy, malloc, 64-bit division)' : object ? (PARTS.find(([, test]) => test(object, name))?.[0] ?? 'other') : 'other';
    return [start, end, name, part];
  });
}
