/* The SDK's ESP32 lwIP calls (modules/network/socket/lwip/modLwipSafe.c) on the fake lwIP: each made
   in lwIP's thread through tcpip_api_call; the close is tcp_close alone (:108-120). */

#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "lwip/dns.h"
#include "fake-lwip.h"

/* lwIP's task first runs what is due (a message or timer ahead of this one in its mailbox: lwIP
   api/tcpip.c tcpip_thread handles them in order), then the call. */
#define IN_LWIP(call) do { fakeRunDue(); fakeInLwip++; call; fakeInLwip--; } while (0)

struct tcp_pcb *tcp_new_safe(void) { struct tcp_pcb *p; IN_LWIP(p = tcp_new()); return p; }
err_t tcp_bind_safe(struct tcp_pcb *pcb, const ip_addr_t *a, u16_t port) { err_t e; IN_LWIP(e = tcp_bind(pcb, a, port)); return e; }
struct tcp_pcb *tcp_listen_safe(struct tcp_pcb *pcb) { struct tcp_pcb *p; IN_LWIP(p = tcp_listen(pcb)); return p; }
err_t tcp_connect_safe(struct tcp_pcb *pcb, const ip_addr_t *a, u16_t port, tcp_connected_fn c) { err_t e; IN_LWIP(e = tcp_connect(pcb, a, port, c)); return e; }
void tcp_close_safe(struct tcp_pcb *pcb) { IN_LWIP(tcp_close(pcb)); }
void tcp_output_safe(struct tcp_pcb *pcb) { IN_LWIP(tcp_output(pcb)); }
err_t tcp_write_safe(struct tcp_pcb *pcb, const void *d, u16_t n, u8_t f) { err_t e; IN_LWIP(e = tcp_write(pcb, d, n, f)); return e; }
void tcp_recved_safe(struct tcp_pcb *pcb, u16_t n) { IN_LWIP(tcp_recved(pcb, n)); }
u8_t pbuf_free_safe(struct pbuf *p) { u8_t r; IN_LWIP(r = pbuf_free(p)); return r; }
