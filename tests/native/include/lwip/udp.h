/* The fake of lwIP's raw UDP API for the host harness (tcp.h, fake-lwip.c). */
#ifndef FAKE_LWIP_UDP_H
#define FAKE_LWIP_UDP_H
#include "lwip/tcp.h"
struct udp_pcb;
typedef void (*udp_recv_fn)(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port);
struct udp_pcb {
	udp_recv_fn recv;
	void *recv_arg;
	u8_t ttl;
	int inUse;
};
struct udp_pcb *udp_new(void);
err_t udp_bind(struct udp_pcb *pcb, const ip_addr_t *address, u16_t port);
void udp_remove(struct udp_pcb *pcb);
void udp_recv(struct udp_pcb *pcb, udp_recv_fn recv, void *arg);
err_t udp_sendto(struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *to, u16_t port);
#endif
