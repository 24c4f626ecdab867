/*
 * The Moddable SDK's lwIP "safe" calls for the Pico W, made under the lwIP lock the pico-sdk asks for.
 * The Pico W build runs lwIP's input in a low-priority interrupt (PICO_CYW43_ARCH_THREADSAFE_BACKGROUND,
 * pico_async_context/async_context_threadsafe_background.c:289-303), and on every chip but the ESP32
 * modules/network/socket/lwip/modLwipSafe.h:26-47 makes each *_safe call the bare lwIP call. Here each
 * is made between cyw43_arch_lwip_begin() and cyw43_arch_lwip_end(), and so is each callback setter the
 * SDK calls bare. The lock is recursive and its owner is the core, so the same calls from lwIP's own
 * callbacks (in the interrupt, already under it) take it again at once. Included by the project's copies of the
 * SDK's sockets (tcp-locked.c, udp-locked.c, socket-locked.c) before the SDK's file.
 */

#ifndef BRAINSTEM_LWIP_LOCKED_H
#define BRAINSTEM_LWIP_LOCKED_H

#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "lwip/dns.h"
#include <string.h>
#include "modLwipSafe.h"	/* its guard keeps the SDK's file from defining the macros again */
#include "pico/cyw43_arch.h"

/* The value of `expression`, worked out under the lock (a GNU statement expression, as pico-sdk uses). */
#define LOCKED(type, expression) ({ cyw43_arch_lwip_begin(); type value_ = (expression); cyw43_arch_lwip_end(); value_; })
/* `statement`, under the lock. */
#define LOCKED_DO(statement) do { cyw43_arch_lwip_begin(); statement; cyw43_arch_lwip_end(); } while (0)

/* Runs fn(ctx) where lwIP may be called: under the lock. */
static inline void lwipRun(void (*fn)(void *), void *ctx) { LOCKED_DO(fn(ctx)); }
static inline void lwipLock(void) { cyw43_arch_lwip_begin(); }
static inline void lwipUnlock(void) { cyw43_arch_lwip_end(); }

static inline struct tcp_pcb *lockedTcpNew(void) { return LOCKED(struct tcp_pcb *, tcp_new()); }
static inline err_t lockedTcpBind(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port) { return LOCKED(err_t, tcp_bind(pcb, address, port)); }
static inline struct tcp_pcb *lockedTcpListen(struct tcp_pcb *pcb) { return LOCKED(struct tcp_pcb *, tcp_listen(pcb)); }
static inline err_t lockedTcpConnect(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port, tcp_connected_fn connected)
{
	return LOCKED(err_t, tcp_connect(pcb, address, port, connected));
}
static inline err_t lockedTcpOutput(struct tcp_pcb *pcb) { return LOCKED(err_t, tcp_output(pcb)); }
static inline err_t lockedTcpWrite(struct tcp_pcb *pcb, const void *data, u16_t length, u8_t flags)
{
	return LOCKED(err_t, tcp_write(pcb, data, length, flags));
}
static inline void lockedTcpRecved(struct tcp_pcb *pcb, u16_t length) { LOCKED_DO(tcp_recved(pcb, length)); }
static inline u8_t lockedPbufFree(struct pbuf *p) { return LOCKED(u8_t, pbuf_free(p)); }
static inline struct udp_pcb *lockedUdpNew(void) { return LOCKED(struct udp_pcb *, udp_new()); }
static inline err_t lockedUdpBind(struct udp_pcb *pcb, const ip_addr_t *address, u16_t port) { return LOCKED(err_t, udp_bind(pcb, address, port)); }
static inline void lockedUdpRemove(struct udp_pcb *pcb) { LOCKED_DO(udp_remove(pcb)); }
static inline err_t lockedDnsGethostbyname(const char *name, ip_addr_t *address, dns_found_callback found, void *arg)
{
	return LOCKED(err_t, dns_gethostbyname(name, address, found, arg));
}

/* lwIP's own close: tcp_abort only when tcp_close fails (modLwipSafe.h:32 aborts a pcb tcp_close may have freed). */
static inline void lockedTcpClose(struct tcp_pcb *pcb) { LOCKED_DO(if (ERR_OK != tcp_close(pcb)) tcp_abort(pcb)); }

/* modLwipSafe.h:39-45 with the lock, and ERR_MEM instead of a write through NULL when lwIP's heap is out. */
static inline void lockedUdpSendto(struct udp_pcb *pcb, const void *data, u16_t size, const ip_addr_t *to, u16_t port, err_t *err)
{
	cyw43_arch_lwip_begin();
	struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, size, PBUF_RAM);
	if (p) {
		memcpy(p->payload, data, size);
		*err = udp_sendto(pcb, p, to, port);
		pbuf_free(p);
	}
	else
		*err = ERR_MEM;
	cyw43_arch_lwip_end();
}

/* The callback setters the SDK calls bare from the main loop too (tcp.c:217-228, 262-271; udp.c:125). */
static inline void lockedTcpArg(struct tcp_pcb *pcb, void *arg) { LOCKED_DO(tcp_arg(pcb, arg)); }
static inline void lockedTcpRecv(struct tcp_pcb *pcb, tcp_recv_fn recv) { LOCKED_DO(tcp_recv(pcb, recv)); }
static inline void lockedTcpSent(struct tcp_pcb *pcb, tcp_sent_fn sent) { LOCKED_DO(tcp_sent(pcb, sent)); }
static inline void lockedUdpRecv(struct udp_pcb *pcb, udp_recv_fn recv, void *arg) { LOCKED_DO(udp_recv(pcb, recv, arg)); }

#undef tcp_new_safe
#undef tcp_bind_safe
#undef tcp_listen_safe
#undef tcp_connect_safe
#undef tcp_close_safe
#undef tcp_output_safe
#undef tcp_write_safe
#undef tcp_recved_safe
#undef pbuf_free_safe
#undef udp_new_safe
#undef udp_bind_safe
#undef udp_remove_safe
#undef udp_sendto_safe
#undef dns_gethostbyname_safe
#define tcp_new_safe lockedTcpNew
#define tcp_bind_safe lockedTcpBind
#define tcp_listen_safe lockedTcpListen
#define tcp_connect_safe lockedTcpConnect
#define tcp_close_safe lockedTcpClose
#define tcp_output_safe lockedTcpOutput
#define tcp_write_safe lockedTcpWrite
#define tcp_recved_safe lockedTcpRecved
#define pbuf_free_safe lockedPbufFree
#define udp_new_safe lockedUdpNew
#define udp_bind_safe lockedUdpBind
#define udp_remove_safe lockedUdpRemove
#define udp_sendto_safe lockedUdpSendto
#define dns_gethostbyname_safe lockedDnsGethostbyname
#define tcp_arg lockedTcpArg
#define tcp_recv lockedTcpRecv
#define tcp_sent lockedTcpSent
#define udp_recv lockedUdpRecv

#endif
