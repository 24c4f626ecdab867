/*
 * The desktop host's multicast DNS socket (mdns-socket-lin.js): the SDK's lin UDP socket, made
 * without a port, is given SO_REUSEADDR and SO_REUSEPORT (to share port 5353 with the host's own
 * responder), bound to the port, joined to the group on any interface, and a multicast TTL of 255.
 * The SDK's lin UDP record starts with its descriptor (modules/io/socket/lin/udp.c:59-60, SDK 8.2.3):
 * this reads that field only.
 */

#include "xsmc.h"

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

typedef struct {
	int skt;
} SDKUDPRecordStart;

void xs_brainstem_mdns_bind_lin(xsMachine *the)
{
	SDKUDPRecordStart *udp = xsmcGetHostData(xsArg(0));
	int port = xsmcToInteger(xsArg(1));
	int one = 1, ttl = 255;
	struct sockaddr_in address;
	struct ip_mreq group;

	if (!udp || (udp->skt < 0))
		xsUnknownError("no socket");
	if ((port <= 0) || (port > 65535))
		xsRangeError("invalid port");
	memset(&group, 0, sizeof(group));
	if (0 == inet_aton(xsmcToString(xsArg(2)), &group.imr_multiaddr))
		xsRangeError("invalid multicast group");

	setsockopt(udp->skt, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
#ifdef SO_REUSEPORT
	setsockopt(udp->skt, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
#endif
	memset(&address, 0, sizeof(address));
	address.sin_family = AF_INET;
	address.sin_port = htons(port);
	address.sin_addr.s_addr = htonl(INADDR_ANY);
	if (0 != bind(udp->skt, (struct sockaddr *)&address, sizeof(address)))
		xsUnknownError("bind failed");

	group.imr_interface.s_addr = htonl(INADDR_ANY);
	if (0 != setsockopt(udp->skt, IPPROTO_IP, IP_ADD_MEMBERSHIP, &group, sizeof(group)))
		xsUnknownError("join failed");
	setsockopt(udp->skt, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl));
}
