// `src/device/mdns-socket` on the Pico W (mapped in the manifest's pico section): the ECMA-419 UDP
// socket bound to port 5353, the group joined by lwIP's igmp_joingroup on every IGMP-capable
// interface (mdns-socket-pico.c). The SDK's own add() on the Pico asks netif_get_by_index(0), which
// lwIP never hands out (indexes start at 1), and dereferences the NULL it gets
// (modules/io/socket/lwip/udp.c:255-261).

import UDP from "embedded:io/socket/udp";

function join(group) @ "xs_brainstem_mdns_join";

export function openMdnsSocket(onReadable) {
	const socket = new UDP({ port: 5353, onReadable });
	try {
		join("224.0.0.251");
	}
	catch (e) {
		socket.close();
		throw e;
	}
	return socket;
}
