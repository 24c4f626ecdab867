/*
 * The fake lwIP (include/lwip/tcp.h): each behaviour follows lwIP 2.2.1's source (src/core/tcp.c,
 * tcp_in.c; esp-lwip behaves the same at the lines cited in the project's native files).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "lwip/dns.h"
#include "lwip/priv/tcpip_priv.h"
#include "lwip/igmp.h"
#include "fake-lwip.h"

struct FakeCounts fakeCounts;
int fakeLwipLock, fakeInLwip, fakeCheckLock;
const ip_addr_t ip_addr_any;

#define POOL_MAX 16
static struct tcp_pcb pool[POOL_MAX];
/* memp's free list; a pcb freed twice is on it twice (lwIP's memp_free does not check) */
static struct tcp_pcb *freeList[4 * POOL_MAX];
static int freeCount;
static struct tcp_pcb listenPcb;

void fakePoolSize(int pcbs)
{
	freeCount = 0;
	for (int i = pcbs - 1; i >= 0; i--)
		freeList[freeCount++] = &pool[i];
}

static void locked(const char *call)
{
	if (fakeCheckLock && !fakeLwipLock && !fakeInLwip) {
		fakeCounts.unlocked++;
		fakeCounts.unlockedCall = call;
	}
}

static int freed(struct tcp_pcb *pcb)
{
	if (pcb && (pcb != &listenPcb) && !pcb->inUse) {
		fakeCounts.callsOnFreed++;
		return 1;
	}
	return 0;
}

/* Connections that hold a pcb of the pool now (the listener's own aside). */
int fakePcbsInUse(void)
{
	int n = 0;
	for (int i = 0; i < POOL_MAX; i++)
		n += pool[i].inUse;
	return n;
}

/* tcp_alloc (tcp.c:1933-1990): memp_malloc(MEMP_TCP_PCB), NULL when the pool is out. */
static struct tcp_pcb *allocPcb(void)
{
	if (!freeCount)
		return NULL;
	struct tcp_pcb *pcb = freeList[--freeCount];
	if (pcb->inUse)
		fakeCounts.sharedPcbs++;
	memset(pcb, 0, sizeof(*pcb));
	pcb->inUse = 1;
	pcb->owned = 1;
	pcb->snd_buf = 11680;
	pcb->remote_ip.addr = 0x0a000002;
	return pcb;
}

/* tcp_free (tcp.c:209-217): memp_free, which takes a pcb already free again. */
static void freePcb(struct tcp_pcb *pcb)
{
	if (pcb == &listenPcb) {
		listenPcb.inUse = 0;
		return;
	}
	if (!pcb->inUse)
		fakeCounts.doubleFrees++;
	pcb->inUse = 0;
	pcb->owned = 0;
	freeList[freeCount++] = pcb;
}

static void callErr(tcp_err_fn errf, void *arg, err_t err)
{
	if (!errf)
		return;
	if (arg && !fakeLive(arg))
		fakeCounts.staleCallbacks++;
	else
		errf(arg, err);
}

struct tcp_pcb *tcp_new(void) { locked("tcp_new"); return allocPcb(); }

err_t tcp_bind(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port)
{
	locked("tcp_bind");
	pcb->local_port = port;
	return ERR_OK;
}

/* tcp_listen_with_backlog_and_err (tcp.c:870-925): a listen pcb of its own pool, the old one freed. */
struct tcp_pcb *tcp_listen(struct tcp_pcb *pcb)
{
	locked("tcp_listen");
	memset(&listenPcb, 0, sizeof(listenPcb));
	listenPcb.state = LISTEN;
	listenPcb.inUse = 1;
	listenPcb.local_port = pcb->local_port;
	listenPcb.callback_arg = pcb->callback_arg;
	freePcb(pcb);
	return &listenPcb;
}

err_t tcp_connect(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port, tcp_connected_fn connected)
{
	locked("tcp_connect");
	return ERR_VAL;
}

void tcp_arg(struct tcp_pcb *pcb, void *arg) { locked("tcp_arg"); if (pcb && !freed(pcb)) pcb->callback_arg = arg; }
void tcp_recv(struct tcp_pcb *pcb, tcp_recv_fn recv) { locked("tcp_recv"); if (pcb && !freed(pcb)) pcb->recv = recv; }
void tcp_sent(struct tcp_pcb *pcb, tcp_sent_fn sent) { locked("tcp_sent"); if (pcb && !freed(pcb)) pcb->sent = sent; }
void tcp_err(struct tcp_pcb *pcb, tcp_err_fn err) { locked("tcp_err"); if (pcb && !freed(pcb)) pcb->errf = err; }
void tcp_accept(struct tcp_pcb *pcb, tcp_accept_fn accept) { locked("tcp_accept"); if (pcb && !freed(pcb)) pcb->accept = accept; }

/* tcp_close -> tcp_close_shutdown (tcp.c:340-420). */
err_t tcp_close(struct tcp_pcb *pcb)
{
	locked("tcp_close");
	if (freed(pcb)) {
		fakeCounts.doubleFrees++;	/* tcp_free of a free pcb */
		return ERR_OK;
	}
	pcb->owned = 0;
	switch (pcb->state) {
	case LISTEN: case CLOSED: case SYN_SENT:
		freePcb(pcb);	/* :393-410 */
		return ERR_OK;
	case SYN_RCVD: case ESTABLISHED: case CLOSE_WAIT:
		if (pcb->unread) {	/* :352-371: bytes the application never took: a RST, and the pcb freed */
			freePcb(pcb);
			return ERR_OK;
		}
		pcb->state = (CLOSE_WAIT == pcb->state) ? LAST_ACK : FIN_WAIT_1;	/* a FIN; lwIP frees it later */
		return ERR_OK;
	default:
		return ERR_OK;
	}
}

/* tcp_abort -> tcp_abandon (tcp.c:560-630): the pcb freed, then the error callback told. */
void tcp_abort(struct tcp_pcb *pcb)
{
	locked("tcp_abort");
	if (freed(pcb)) {
		fakeCounts.doubleFrees++;
		return;
	}
	tcp_err_fn errf = pcb->errf;
	void *arg = pcb->callback_arg;
	freePcb(pcb);
	callErr(errf, arg, ERR_ABRT);
}

int fakeHeapRefusals;

/* lwIP's tcp_write (src/core/tcp_out.c:393-706): ERR_MEM when the heap has no room for the segment
   (tcp_pbuf_prealloc fails, :545-553 and :640-645), the pcb left as it was. */
err_t tcp_write(struct tcp_pcb *pcb, const void *data, u16_t length, u8_t flags)
{
	locked("tcp_write");
	if (freed(pcb))
		return ERR_CLSD;
	if (fakeHeapRefusals > 0) {
		fakeHeapRefusals--;
		return ERR_MEM;
	}
	return ERR_OK;
}

err_t tcp_output(struct tcp_pcb *pcb) { locked("tcp_output"); freed(pcb); return ERR_OK; }

void tcp_recved(struct tcp_pcb *pcb, u16_t length)
{
	locked("tcp_recved");
	if (!freed(pcb))
		pcb->unread = (pcb->unread > length) ? pcb->unread - length : 0;
}

u8_t pbuf_free(struct pbuf *p) { locked("pbuf_free"); free(p); return 1; }

struct pbuf *pbuf_alloc(pbuf_layer layer, u16_t length, pbuf_type type)
{
	locked("pbuf_alloc");
	struct pbuf *p = calloc(1, sizeof(struct pbuf) + length);
	p->payload = p + 1;
	p->tot_len = p->len = length;
	return p;
}

static struct pbuf *newPbuf(int bytes)
{
	struct pbuf *p = calloc(1, sizeof(struct pbuf) + bytes);
	p->payload = p + 1;
	p->tot_len = p->len = (u16_t)bytes;
	return p;
}

/* A client's SYN and handshake: tcp_listen_input (tcp_in.c:658-670, NULL when no pcb is left) and the
   accept in SYN_RCVD (tcp_in.c:828-840: an answer other than ERR_OK aborts the new pcb). */
struct tcp_pcb *fakeConnect(void)
{
	fakeInLwip++;
	struct tcp_pcb *pcb = allocPcb();
	if (!pcb) {
		fakeCounts.nullAccepts++;
		listenPcb.accept(listenPcb.callback_arg, NULL, ERR_MEM);
	}
	else {
		pcb->state = ESTABLISHED;
		pcb->callback_arg = listenPcb.callback_arg;
		err_t err = listenPcb.accept(listenPcb.callback_arg, pcb, ERR_OK);
		if ((ERR_OK != err) && (ERR_ABRT != err))
			tcp_abort(pcb);
		if (ERR_OK != err)
			pcb = NULL;
	}
	fakeInLwip--;
	return pcb;
}

/* Data in (tcp_in.c:496-520, TCP_EVENT_RECV): with no receive callback, tcp_recv_null takes it. */
void fakeData(struct tcp_pcb *pcb, int bytes)
{
	if (!pcb->inUse)
		return;		/* no pcb has this connection any more */
	fakeInLwip++;
	if (pcb->recv) {
		void *arg = pcb->callback_arg;
		pcb->unread += bytes;
		if (arg && !fakeLive(arg))
			fakeCounts.staleCallbacks++;
		else {
			struct pbuf *p = newPbuf(bytes);
			if (ERR_OK != pcb->recv(arg, pcb, p, ERR_OK)) {
				if (pcb->refused_data)	/* refused: lwIP holds it as refused_data, still unread */
					free(p);		/* (lwIP chains it; one record of it is enough here) */
				else
					pcb->refused_data = p;
			}
		}
	}
	fakeInLwip--;
}

/* lwIP offers refused data again (lwIP 2.2.1 src/core/tcp.c:1543-1600, tcp_process_refused_data): to the receive callback now, kept if refused again. */
err_t tcp_process_refused_data(struct tcp_pcb *pcb)
{
	locked("tcp_process_refused_data");
	struct pbuf *p = pcb->refused_data;
	if (!p || !pcb->recv)
		return ERR_OK;
	pcb->refused_data = NULL;
	if (ERR_OK != pcb->recv(pcb->callback_arg, pcb, p, ERR_OK))
		pcb->refused_data = p;
	return ERR_OK;
}

/* lwIP's fast timer, every 250 ms (src/core/tcp.c:1483-1520, tcp_fasttmr: refused data at :1513-1515): refused data offered again. */
void fakeFastTimer(void)
{
	fakeInLwip++;
	for (int i = 0; i < POOL_MAX; i++) {
		struct tcp_pcb *pcb = &pool[i];
		if (pcb->inUse && pcb->refused_data)
			tcp_process_refused_data(pcb);
	}
	fakeInLwip--;
}

/* The peer's FIN (tcp_in.c:530-545, TCP_EVENT_CLOSED: the receive callback with a NULL pbuf). */
void fakeFin(struct tcp_pcb *pcb)
{
	if (!pcb->inUse)
		return;
	fakeInLwip++;
	if (ESTABLISHED == pcb->state)
		pcb->state = CLOSE_WAIT;
	if (pcb->recv) {
		void *arg = pcb->callback_arg;
		if (arg && !fakeLive(arg))
			fakeCounts.staleCallbacks++;
		else
			pcb->recv(arg, pcb, NULL, ERR_OK);
	}
	fakeInLwip--;
}

/* The peer's RST (tcp_in.c:442-449): the error callback, if any, then the pcb removed and freed. */
void fakeRst(struct tcp_pcb *pcb)
{
	if (!pcb->inUse)
		return;
	fakeInLwip++;
	tcp_err_fn errf = pcb->errf;
	void *arg = pcb->callback_arg;
	callErr(errf, arg, ERR_RST);
	freePcb(pcb);
	fakeInLwip--;
}

/* lwIP gives up on a connection (tcp_slowtmr, tcp.c:1383-1413: TCP_MAXRTX retransmissions or the
   keep-alive probes unanswered): the pcb freed first, its error callback told after, with the
   callback and argument read before the free. */
void fakeGiveUp(struct tcp_pcb *pcb)
{
	if (!pcb->inUse)
		return;
	fakeInLwip++;
	tcp_err_fn errf = pcb->errf;
	void *arg = pcb->callback_arg;
	freePcb(pcb);
	callErr(errf, arg, ERR_ABRT);
	fakeInLwip--;
}

void (*fakeLwipDue)(void);

void fakeRunDue(void)
{
	void (*due)(void) = fakeLwipDue;
	if (!due || fakeInLwip)
		return;
	fakeLwipDue = NULL;
	due();
}

void fakeLockBegin(void)
{
	if (0 == fakeLwipLock)
		fakeRunDue();
	fakeLwipLock++;
}

/* UDP (udp.c of lwIP): the pcb and its receive callback, called from lwIP's input. */
struct udp_pcb *fakeLastUdp;
static struct udp_pcb udpPcb;
struct udp_pcb *udp_new(void) { locked("udp_new"); memset(&udpPcb, 0, sizeof(udpPcb)); udpPcb.inUse = 1; return fakeLastUdp = &udpPcb; }
err_t udp_bind(struct udp_pcb *pcb, const ip_addr_t *address, u16_t port) { locked("udp_bind"); return ERR_OK; }
void udp_remove(struct udp_pcb *pcb) { locked("udp_remove"); pcb->inUse = 0; }
void udp_recv(struct udp_pcb *pcb, udp_recv_fn recv, void *arg) { locked("udp_recv"); pcb->recv = recv; pcb->recv_arg = arg; }
err_t udp_sendto(struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *to, u16_t port) { locked("udp_sendto"); return ERR_OK; }

void fakeUdpPacket(struct udp_pcb *pcb, int bytes)
{
	static const ip_addr_t from = { 0x0a000002 };
	fakeInLwip++;
	if (pcb->inUse && pcb->recv)
		pcb->recv(pcb->recv_arg, pcb, newPbuf(bytes), &from, 5353);
	fakeInLwip--;
}

err_t dns_gethostbyname(const char *name, ip_addr_t *address, dns_found_callback found, void *arg) { locked("dns_gethostbyname"); return ERR_VAL; }

/* ESP-IDF: the call runs in lwIP's tcpip thread, the caller waiting (lwIP api_lib.c tcpip_api_call). */
err_t tcpip_api_call(tcpip_api_call_fn fn, struct tcpip_api_call_data *call)
{
	fakeRunDue();
	fakeInLwip++;
	err_t err = fn(call);
	fakeInLwip--;
	return err;
}

int ipaddr_aton(const char *text, ip_addr_t *address) { address->addr = 0; return 1; }

char *ipaddr_ntoa_r(const ip_addr_t *address, char *buffer, int size)
{
	snprintf(buffer, size, "%u.%u.%u.%u", (unsigned)(address->addr >> 24), (unsigned)(address->addr >> 16) & 255,
		(unsigned)(address->addr >> 8) & 255, (unsigned)address->addr & 255);
	return buffer;
}

/* IGMP and netif: the SDK's UDP add() and remove() link; the harness never calls them. */
struct netif *netif_get_by_index(u8_t index) { return NULL; }
err_t igmp_joingroup(const ip4_addr_t *ifaddr, const ip4_addr_t *group) { locked("igmp_joingroup"); return ERR_OK; }
err_t igmp_leavegroup(const ip4_addr_t *ifaddr, const ip4_addr_t *group) { locked("igmp_leavegroup"); return ERR_OK; }
