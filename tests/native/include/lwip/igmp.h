/* The fake of lwIP's IGMP and netif for the host harness: the SDK's UDP add() and remove() compile;
   the harness never calls them. */
#ifndef FAKE_LWIP_IGMP_H
#define FAKE_LWIP_IGMP_H
#include "lwip/tcp.h"
struct netif { ip_addr_t ip_addr; };
struct netif *netif_get_by_index(u8_t index);
err_t igmp_joingroup(const ip4_addr_t *ifaddr, const ip4_addr_t *group);
err_t igmp_leavegroup(const ip4_addr_t *ifaddr, const ip4_addr_t *group);
#endif
