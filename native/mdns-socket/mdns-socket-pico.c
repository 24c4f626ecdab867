/*
 * The Pico W's multicast group join (mdns-socket-pico.js): igmp_joingroup() with IP4_ADDR_ANY joins
 * the group on every interface that has NETIF_FLAG_IGMP (cyw43_lwip.c sets it and the CYW43's MAC
 * filter), inside the lwIP lock of the pico-sdk's cyw43_arch. A socket bound to any address on the
 * group's port then receives the group's packets.
 */

#include "xsmc.h"
#include "xsHost.h"
#include "lwip/igmp.h"
#include "lwip/ip4_addr.h"
#include "pico/cyw43_arch.h"

void xs_brainstem_mdns_join(xsMachine *the)
{
	ip4_addr_t group;
	err_t err;

	if (!ip4addr_aton(xsmcToString(xsArg(0)), &group) || !ip4_addr_ismulticast(&group))
		xsRangeError("invalid multicast group");

	cyw43_arch_lwip_begin();
	err = igmp_joingroup(IP4_ADDR_ANY4, &group);
	cyw43_arch_lwip_end();

	if (ERR_OK != err)
		xsUnknownError("igmp_joingroup failed");
}
