/*
 * A fake of lwIP's raw TCP API (lwIP 2.2.1, as pico-sdk 2.2.0 carries it in lib/lwip), for the host
 * harness. A pool of pcbs as lwIP's memp keeps them, with what lwIP does that the SDK's sockets meet
 * (fake-lwip.c, each with its lwIP source line): a FIN reaches the receive callback as a NULL pbuf, a
 * RST calls the error callback, if any, and frees the pcb, an accept with no pcb left is a NULL pcb, a
 * close with received bytes untaken resets and frees at once. It counts what would break the chip: a
 * pcb freed twice, an lwIP call on a freed pcb, two connections given one pcb, an error callback with
 * an argument already freed, an lwIP call made outside the lock from the main loop.
 */

#ifndef FAKE_LWIP_TCP_H
#define FAKE_LWIP_TCP_H

#include <stdint.h>
#include <stddef.h>

typedef uint8_t u8_t;
typedef uint16_t u16_t;
typedef uint32_t u32_t;
typedef int8_t s8_t;
typedef s8_t err_t;

#define ERR_OK 0
#define ERR_MEM -1
#define ERR_VAL -6
#define ERR_ABRT -13
#define ERR_RST -14
#define ERR_CLSD -15
#define LWIP_UNUSED_ARG(x) ((void)(x))

typedef struct { u32_t addr; } ip_addr_t;
typedef ip_addr_t ip4_addr_t;
extern const ip_addr_t ip_addr_any;
#define IP_ADDR_ANY (&ip_addr_any)
#define IP4_ADDR_ANY4 (&ip_addr_any)
int ipaddr_aton(const char *text, ip_addr_t *address);
char *ipaddr_ntoa_r(const ip_addr_t *address, char *buffer, int size);

struct pbuf {
	struct pbuf *next;
	void *payload;
	u16_t tot_len, len;
};
u8_t pbuf_free(struct pbuf *p);
typedef enum { PBUF_TRANSPORT } pbuf_layer;
typedef enum { PBUF_RAM } pbuf_type;
struct pbuf *pbuf_alloc(pbuf_layer layer, u16_t length, pbuf_type type);

enum tcp_state { CLOSED, LISTEN, SYN_SENT, SYN_RCVD, ESTABLISHED, FIN_WAIT_1, FIN_WAIT_2, CLOSE_WAIT, CLOSING, LAST_ACK, TIME_WAIT };
#define SOF_REUSEADDR 0x04
#define TCP_WRITE_FLAG_COPY 0x01
#define TCP_WRITE_FLAG_MORE 0x02

struct tcp_pcb;
typedef err_t (*tcp_recv_fn)(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err);
typedef err_t (*tcp_sent_fn)(void *arg, struct tcp_pcb *pcb, u16_t len);
typedef void (*tcp_err_fn)(void *arg, err_t err);
typedef err_t (*tcp_accept_fn)(void *arg, struct tcp_pcb *pcb, err_t err);
typedef err_t (*tcp_connected_fn)(void *arg, struct tcp_pcb *pcb, err_t err);

struct tcp_pcb {
	u8_t so_options;
	enum tcp_state state;
	ip_addr_t remote_ip;
	u16_t remote_port, local_port;
	void *callback_arg;
	tcp_recv_fn recv;
	tcp_sent_fn sent;
	tcp_err_fn errf;
	tcp_accept_fn accept;
	u16_t snd_buf;
	int inUse;		/* fake: taken from the pool */
	int owned;		/* fake: 1 while the application holds it (until its close or abort) */
	int unread;		/* fake: bytes received the application has not given back with tcp_recved */
	struct pbuf *refused_data;	/* data the receive callback refused, offered again later */
};

#define tcp_sndbuf(pcb) ((pcb)->snd_buf)
#define tcp_nagle_disable(pcb) ((void)(pcb))
#define tcp_nagle_enable(pcb) ((void)(pcb))
#define tcp_accepted(pcb) LWIP_UNUSED_ARG(pcb)

struct tcp_pcb *tcp_new(void);
err_t tcp_bind(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port);
struct tcp_pcb *tcp_listen(struct tcp_pcb *pcb);
err_t tcp_connect(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port, tcp_connected_fn connected);
void tcp_arg(struct tcp_pcb *pcb, void *arg);
void tcp_recv(struct tcp_pcb *pcb, tcp_recv_fn recv);
void tcp_sent(struct tcp_pcb *pcb, tcp_sent_fn sent);
void tcp_err(struct tcp_pcb *pcb, tcp_err_fn err);
void tcp_accept(struct tcp_pcb *pcb, tcp_accept_fn accept);
err_t tcp_close(struct tcp_pcb *pcb);
void tcp_abort(struct tcp_pcb *pcb);
err_t tcp_write(struct tcp_pcb *pcb, const void *data, u16_t length, u8_t flags);
err_t tcp_output(struct tcp_pcb *pcb);
void tcp_recved(struct tcp_pcb *pcb, u16_t length);

#endif
