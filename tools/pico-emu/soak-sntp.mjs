// The SNTP server of a soak (soak.mjs), on the TAP link's host address: it answers the emulated board's
// own time (emulated seconds since power-on, from `epoch`), plus whatever it was stepped by, so that the
// board's clock can be checked against it in emulated time. RFC 4330 §5: a 48-byte reply in mode 4,
// stratum 1, the request's transmit timestamp as its originate timestamp.
import dgram from 'node:dgram';

const NTP_UNIX = 2208988800; // seconds from 1900 to 1970

export class SntpServer {
  /** @param now emulated seconds since power-on; @param epoch Unix seconds at power-on */
  constructor(now, epoch, address = '192.168.77.1') {
    this.now = now;
    this.epoch = epoch;
    this.stepped = 0;
    this.lastStepAt = -Infinity;
    this.asked = 0;
    this.socket = dgram.createSocket('udp4');
    this.socket.on('message', (msg, from) => this.answer(msg, from));
    this.socket.bind(123, address);
  }

  /** Unix seconds the server reads now. */
  seconds() {
    return this.epoch + this.now() + this.stepped;
  }

  stepBy(seconds) {
    this.stepped += seconds;
    this.lastStepAt = this.now();
  }

  answer(msg, from) {
    if (msg.length < 48) return;
    const reply = Buffer.alloc(48);
    const t = this.seconds() + NTP_UNIX;
    const stamp = (offset) => {
      reply.writeUInt32BE(Math.floor(t), offset);
      reply.writeUInt32BE(Math.floor((t % 1) * 2 ** 32), offset + 4);
    };
    reply[0] = 0x24; // leap 0, version 4, mode 4 (server)
    reply[1] = 1; // stratum 1
    reply[2] = msg[2]; // poll, as asked
    reply[3] = 0xec; // precision 2^-20
    reply.write('LOCL', 12, 'latin1');
    stamp(16); // reference
    msg.copy(reply, 24, 40, 48); // originate: the request's transmit time
    stamp(32); // receive
    stamp(40); // transmit
    this.socket.send(reply, from.port, from.address);
    this.asked++;
  }
}
