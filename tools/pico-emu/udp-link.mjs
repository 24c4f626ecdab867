// Carries the emulated chip's Ethernet frames as UDP datagrams on loopback: each frame the firmware
// sends goes to 127.0.0.1:peerPort, each datagram arriving on 127.0.0.1:localPort is a frame from
// the network. socat's TUN address (tun-type=tap) on the other end makes that a TAP device
// (tools/pico-emu/netns.sh). Frames of a TCP port in `counters.cut` are dropped both ways: the
// client on that port is gone from the network (a phone that left the Wi-Fi), whatever it sends.
import dgram from 'node:dgram';

/** The TCP source and destination ports of an IPv4 Ethernet frame, or none. */
function tcpPorts(f) {
  if (f.length < 34 || f[12] !== 0x08 || f[13] !== 0 || f[23] !== 6) return [];
  const at = 14 + (f[14] & 15) * 4;
  return f.length < at + 4 ? [] : [(f[at] << 8) | f[at + 1], (f[at + 2] << 8) | f[at + 3]];
}

export function udpLink(chip, localPort, peerPort, counters = { out: 0, in: 0, dropped: 0, cut: new Set() }) {
  const sock = dgram.createSocket('udp4');
  const isCut = (frame) => counters.cut.size > 0 && tcpPorts(frame).some((p) => counters.cut.has(p));
  sock.bind(localPort, '127.0.0.1');
  sock.on('message', (msg) => {
    if (isCut(msg)) counters.dropped++;
    else if (chip.receive(new Uint8Array(msg))) counters.in++;
    else counters.dropped++;
  });
  chip.onEthernet = (frame) => {
    if (isCut(frame)) return;
    counters.out++;
    sock.send(frame, peerPort, '127.0.0.1');
  };
  return counters;
}
