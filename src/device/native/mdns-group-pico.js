// The Pico W's multicast group join for src/device/announce.ts (mapped in the manifest's pico section
// in place of src/device/mdns-group): lwIP's igmp_joingroup on every IGMP-capable interface
// (mdns-group-pico.c). The SDK's own add() on the ECMA-419 UDP socket asks netif_get_by_index(0),
// which lwIP never hands out (indexes start at 1), and dereferences the NULL it gets.

function join(group) @ "xs_brainstem_mdns_join";

export function joinGroup(socket, group) {
	join(group);
}
