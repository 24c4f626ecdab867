// Carries the emulated chip's Ethernet frames as UDP datagrams on loopback: each frame the firmware
// sends goes to 127.0.0.1:peerPort, each datagram arriving on 127.0.0.1:localPort is a frame from
// the network. socat's TUN address (tun-type=tap) on the other end makes that a TAP device
// (tools/pico-emu/netns.sh).
import dgram from 'node:dgram';

export function udpLink(chip, localPort, peerPort, counters = { out: 0, in: 0, dropped: 0 }) {
  const sock = dgram.createSocket('udp4');
  sock.bind(localPort, '127.0.0.1');
  sock.on('message', (msg) => {
    if (chip.receive(new Uint8Array(msg))) counters.in++;
    else counters.dropped++;
  });
  chip.onEthernet = (frame) => {
    counters.out++;
    sock.send(frame, peerPort, '127.0.0.1');
  };
  return counters;
}
