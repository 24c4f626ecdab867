// The eFuse of an emulated ESP32 with a factory MAC of its own: QEMU's esp32 machine reads its eFuse
// from a 124-byte file (hw/xtensa/esp32_efuse.c: the Esp32EfuseRegs words, BLOCK0 to BLOCK3), and a
// blank one gives every board 00:00:00:00:00:00 (an Ethernet MAC of ...:03, serial 0x00000003).
// The factory MAC is BLOCK0 bits 32..79, mac[5] lowest, with its CRC-8 in bits 80..87 (ESP-IDF
// components/efuse/esp32/esp_efuse_table.csv, MAC and MAC_CRC; the CRC of esp_rom_efuse.c: reflected
// polynomial 0x8c, start 0).
//   node tools/esp32-emu/efuse.mjs FILE BASE_MAC        (BASE_MAC: aa:bb:cc:dd:ee:ff)
import * as fs from 'node:fs';

export function crc8(bytes) {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x8c : crc >>> 1;
  }
  return crc;
}

/** The eFuse file's bytes for `mac` (six numbers). */
export function efuseImage(mac) {
  const words = new Uint32Array(31);
  words[1] = (mac[2] << 24 | mac[3] << 16 | mac[4] << 8 | mac[5]) >>> 0;
  words[2] = (crc8(mac) << 16 | mac[0] << 8 | mac[1]) >>> 0;
  return Buffer.from(words.buffer);
}

/** The MAC ESP-IDF gives the Ethernet interface: the base MAC with 3 added to its last byte (esp_mac.h). */
export function ethernetMac(mac) {
  return [...mac.slice(0, 5), (mac[5] + 3) & 0xff];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, text] = process.argv.slice(2);
  fs.writeFileSync(file, efuseImage(text.split(':').map((h) => parseInt(h, 16))));
}
