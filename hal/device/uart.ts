// uart: ECMA-419 Serial ports from the profile. The module offers the link settings a plain UART has
// (8N1, no flow control: ECMA-419 Serial takes a baud rate and pins only); protocol 0 (undefined: bytes
// pass through) is the only protocol, and nothing reads the port yet: enable opens it so another part of
// the firmware can use it. linkchannel reads the port's own index (not linked) and cannot be set.

import Serial from 'embedded:io/serial';
import { ApiError, aErrIO } from '../kit/errors';
import { deepFreeze } from '../../util/freeze';
import type { ValueOf, ValuesOf } from '../types';
import type { UartPins } from './board';
import { DeviceEntity } from './entity';
import { READ, type OpTable } from './op-table';
import type { Settings } from './settings';


const OPS: OpTable<ValuesOf<'uart'>> = deepFreeze({
  enable: { setting: 'en', factory: false },
  // Automatic (0) is not available: a fixed rate between what the ESP32 UART makes.
  baudrate: { setting: 'baud', factory: 115200, limits: { min: 300, max: 5000000 } },
  protocol: { fixed: 0, limits: { values: [0] } },
  linkchannel: { code: READ },
  stopbits: { fixed: 0, limits: { values: [0] } },
  parity: { fixed: 0, limits: { values: [0] } },
  databits: { fixed: 8, limits: { values: [8] } },
  flowcontrol: { fixed: 0, limits: { values: [0] } },
  capableprotocols: { fixed: 1 },
  availableprotocols: { fixed: 1 },
});

/**
 * Bytes that arrive while nothing else uses the port are dropped. A callback is also what makes the
 * Pico's driver allocate its whole record: opened with neither onReadable nor onWritable it allocates
 * the record up to `the` and then writes its FIFOs past the end (Moddable modules/io/serial/pico/
 * serial.c:168 and :192-195), corrupting the C heap.
 */
function discard(this: Serial): void {
  this.read();
}

export class UartEntity extends DeviceEntity<ValuesOf<'uart'>> {
  private readonly ports: readonly UartPins[];
  private readonly io: (Serial | null)[];

  constructor(s: Settings, ports: readonly UartPins[]) {
    super('uart', OPS, ports.length, s, 'uart');
    this.ports = ports;
    this.io = [];
    for (let i = 0; i < ports.length; i++) this.io.push(null);
  }

  override boot(): void {
    for (let i = 0; i < this.ports.length; i++) this.changed(i);
  }

  protected override read(i: number): ValueOf<'uart'> {
    return i; // linkchannel: own index = not linked
  }

  /** enable or baudrate changed: reopen the port at the saved rate, or leave it closed. */
  protected override changed(i: number): void {
    const old = this.io[i];
    this.io[i] = null;
    if (old) old.close();
    if (!this.settings.bool(this.key(i, 'en'))) return;
    const p = this.ports[i];
    try {
      this.io[i] = new Serial({ port: p.port, transmit: p.transmit, receive: p.receive, baud: this.settings.num(this.key(i, 'baud')), onReadable: discard });
    } catch (e) {
      throw new ApiError(aErrIO, `uart ${i} (port ${p.port}): ${(e as Error).message}`);
    }
  }
}
Object.freeze(UartEntity.prototype);
