// `src/device/mdns-socket` on the Moddable desktop host (mapped in the manifest's lin section): the
// SDK's lin UDP socket has no add() and binds without SO_REUSEADDR (modules/io/socket/lin/udp.c:
// "To do: multicast", :117-124), so it cannot share port 5353 with the host's own responder nor hear
// the group. The socket is made unbound, and mdns-socket-lin.c sets SO_REUSEADDR and SO_REUSEPORT,
// binds it to 5353, joins 224.0.0.251 and sets the multicast TTL to 255 (RFC 6762 §11).

import UDP from "embedded:io/socket/udp";

function bindAndJoin(socket, port, group) @ "xs_brainstem_mdns_bind_lin";

export function openMdnsSocket(onReadable) {
	const socket = new UDP({ onReadable });
	try {
		bindAndJoin(socket, 5353, "224.0.0.251");
	}
	catch (e) {
		socket.close();
		throw e;
	}
	return socket;
}
