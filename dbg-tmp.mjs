import { RP2040 } from 'rp2040js';
const chip = new RP2040();
const PIO0 = 0x50200000;
const w = (o, v) => chip.writeUint32(PIO0 + o, v);
w(0x048 + 8*4, 0x8020);
w(0x000, 4); // enable SM2
const m = chip.pio[0].machines[2];
w(0x0d8 + 2*0x18, 8);
for (let i = 0; i < 20; i++) { chip.pio[0].step(); }
console.log('pc', m.pc, 'waiting', m.waiting, 'rx', m.rxFIFO.itemCount, m.waitType);
chip.readUint32(PIO0 + 0x028);
console.log('after read waiting', m.waiting, 'rx', m.rxFIFO.itemCount);
