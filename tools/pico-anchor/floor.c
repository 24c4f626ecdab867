/*
 * The floor of make pico-emu-figures: the anchor's answers (main.js) from lwIP's raw API alone, with no
 * JavaScript on the way. A connection reads the request head (and a body as long as its Content-Length),
 * writes the head and body as fast as lwIP takes them, and closes once all is queued, as the SDK's http
 * Server closes after its answer. lwIP refuses a write (ERR_MEM) when its small heap or its pbuf and
 * segment pools are taken by other connections' unacknowledged bytes (four clients at once do that):
 * every answer not yet wholly queued is tried again whenever the bytes of a connection still being
 * answered are acknowledged, and from lwIP's poll (every 0.5 s) otherwise (a connection is let go once
 * its answer is queued, so the acknowledgements of a short answer wake nobody). lwIP calls its callbacks with its
 * lock held, in the cyw43 arch's background interrupt; the start takes the lock itself. The
 * connections are a static pool: no malloc in that interrupt (newlib's malloc lock is empty there).
 */

#include "xsmc.h"
#include "xsHost.h"
#include "lwip/tcp.h"
#include "pico/cyw43_arch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define kRequestBytes (512)
#define kPieceBytes (1024)
#define kConnections (4)

typedef struct {
	uint8_t used;
	uint8_t answering;
	uint16_t got;
	uint16_t headBytes;	// head still to queue (lwIP copies it)
	uint32_t left;		// body bytes still to queue
	const char *body;	// NULL: PIECE repeated
	struct tcp_pcb *pcb;
	char head[160];
	char request[kRequestBytes];
} Conn;

static Conn gConns[kConnections];
static char gPiece[kPieceBytes];
static char gValue[256];
static uint16_t gValueBytes;

static void finish(struct tcp_pcb *pcb, Conn *c)
{
	tcp_arg(pcb, NULL);
	tcp_recv(pcb, NULL);
	tcp_sent(pcb, NULL);
	tcp_err(pcb, NULL);
	tcp_poll(pcb, NULL, 0);
	c->used = 0;
	if (ERR_OK != tcp_close(pcb))
		tcp_abort(pcb);
}

// Queue what lwIP takes of the head, then of the body; close once all is queued.
static void pump(struct tcp_pcb *pcb, Conn *c)
{
	if (c->headBytes) {
		if (ERR_OK != tcp_write(pcb, c->head, c->headBytes, TCP_WRITE_FLAG_COPY)) return; // tried again later
		c->headBytes = 0;
	}
	while (c->left) {
		uint16_t room = tcp_sndbuf(pcb);
		uint32_t n = c->left < kPieceBytes ? c->left : kPieceBytes;
		if (n > room) n = room;
		if (!n || tcp_sndqueuelen(pcb) >= TCP_SND_QUEUELEN - 1) break;
		if (ERR_OK != tcp_write(pcb, c->body ? c->body : gPiece, n, 0)) break;
		c->left -= n;
	}
	tcp_output(pcb);
	if (!c->left)
		finish(pcb, c);
}

// The head is whole and the body (Content-Length) has come: /value, /bytes/N or 404.
static int answer(struct tcp_pcb *pcb, Conn *c)
{
	char *end = strstr(c->request, "\r\n\r\n");
	if (!end) return 0;
	char *length = strstr(c->request, "ontent-Length:");
	if (!length) length = strstr(c->request, "ontent-length:");
	if (length && length < end && (c->got - (end + 4 - c->request)) < atoi(length + 14)) return 0;

	const char *path = strchr(c->request, ' ');
	int status = 200;
	const char *type = "application/octet-stream";
	if (path && !strncmp(path, " /value ", 8)) {
		c->body = gValue;
		c->left = gValueBytes;
		type = "application/json";
	}
	else if (path && !strncmp(path, " /bytes/", 8) && atoi(path + 8) <= 65536)
		c->left = atoi(path + 8);
	else
		status = 404;
	c->headBytes = snprintf(c->head, sizeof(c->head), "HTTP/1.1 %d %s\r\nconnection: close\r\ncontent-type: %s\r\ncontent-length: %u\r\n\r\n",
		status, 200 == status ? "OK" : "Not Found", type, (unsigned)c->left);
	c->answering = 1;
	pump(pcb, c);
	return 1;
}

static err_t onRecv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	Conn *c = arg;
	if (!p) {
		if (c) finish(pcb, c);
		else tcp_close(pcb);
		return ERR_OK;
	}
	if (c && !c->answering) {
		uint16_t room = kRequestBytes - 1 - c->got;
		uint16_t n = pbuf_copy_partial(p, c->request + c->got, p->tot_len < room ? p->tot_len : room, 0);
		c->got += n;
		c->request[c->got] = 0;
	}
	tcp_recved(pcb, p->tot_len);
	pbuf_free(p);
	if (c && !c->answering)
		answer(pcb, c);
	return ERR_OK;
}

// Every answer still being queued, this one's (if any) first: acknowledged bytes free lwIP's memory for all.
static void pumpAll(struct tcp_pcb *pcb, Conn *c)
{
	if (c) pump(pcb, c);
	for (int i = 0; i < kConnections; i++) {
		Conn *other = &gConns[i];
		if (other != c && other->used && other->answering) pump(other->pcb, other);
	}
}

static err_t onSent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	pumpAll(pcb, arg);
	return ERR_OK;
}

static err_t onPoll(void *arg, struct tcp_pcb *pcb)
{
	Conn *c = arg;
	if (c && c->answering) pumpAll(pcb, c);
	return ERR_OK;
}

static void onErr(void *arg, err_t err)
{
	if (arg) ((Conn *)arg)->used = 0;	// the pcb is gone already
}

static err_t onAccept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	if (ERR_OK != err || !pcb) return ERR_VAL;
	Conn *c = NULL;
	for (int i = 0; i < kConnections && !c; i++)
		if (!gConns[i].used) c = &gConns[i];
	if (c) {
		memset(c, 0, sizeof(*c));
		c->used = 1;
		c->pcb = pcb;
	}
	else {
		tcp_abort(pcb);
		return ERR_ABRT;
	}
	tcp_arg(pcb, c);
	tcp_recv(pcb, onRecv);
	tcp_sent(pcb, onSent);
	tcp_err(pcb, onErr);
	tcp_poll(pcb, onPoll, 1);
	return ERR_OK;
}

void xs_anchor_floor_start(xsMachine *the)
{
	int port = xsmcToInteger(xsArg(0));
	int bytes = xsmcToInteger(xsArg(1));
	if (bytes < 13 || bytes >= (int)sizeof(gValue)) xsRangeError("value bytes");
	memset(gPiece, 'x', sizeof(gPiece));
	memset(gValue, '0', bytes);
	memcpy(gValue, "{\"value\":\"", 10);
	memcpy(gValue + bytes - 2, "\"}", 2);
	gValueBytes = bytes;

	cyw43_arch_lwip_begin();
	struct tcp_pcb *pcb = tcp_new();
	if (pcb && ERR_OK == tcp_bind(pcb, IP_ANY_TYPE, port))
		pcb = tcp_listen(pcb);
	else if (pcb) {
		tcp_close(pcb);
		pcb = NULL;
	}
	if (pcb)
		tcp_accept(pcb, onAccept);
	cyw43_arch_lwip_end();
	if (!pcb) xsUnknownError("floor: no listener");
}
