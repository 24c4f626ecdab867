/*
 * The Moddable SDK's lwIP TCP socket and listener (modules/io/socket/lwip/tcp.c), compiled with its
 * lwIP calls made under the lwIP lock the pico-sdk asks for. The Pico W build runs lwIP's input in a
 * low-priority interrupt (PICO_CYW43_ARCH_THREADSAFE_BACKGROUND): an acknowledgement freeing a pcb's
 * sent segments there while the main loop is inside tcp_write or tcp_output breaks the pcb's queue
 * count (lwIP's assertion "pcb->snd_queuelen >= pbuf_clen(next->p)"). On every chip but the ESP32,
 * modules/network/socket/lwip/modLwipSafe.h makes its *_safe calls the bare lwIP calls; here each is
 * made between cyw43_arch_lwip_begin() and cyw43_arch_lwip_end(), as native/mdns-socket does.
 * The close is lwIP's own: tcp_abort only when tcp_close fails (modLwipSafe.h's tcp_close then
 * tcp_abort frees a pcb that tcp_close has freed already, docs/pico.md).
 */

#include "lwip/tcp.h"
#include "xsmc.h"
#include "xsHost.h"
#include "modInstrumentation.h"
#include "mc.xs.h"
#include "builtinCommon.h"
#include "modLwipSafe.h"	/* its guard keeps tcp.c from defining the macros again */
#include "pico/cyw43_arch.h"

static struct tcp_pcb *lockedNew(void)
{
	cyw43_arch_lwip_begin();
	struct tcp_pcb *pcb = tcp_new();
	cyw43_arch_lwip_end();
	return pcb;
}

static err_t lockedBind(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port)
{
	cyw43_arch_lwip_begin();
	err_t err = tcp_bind(pcb, address, port);
	cyw43_arch_lwip_end();
	return err;
}

static struct tcp_pcb *lockedListen(struct tcp_pcb *pcb)
{
	cyw43_arch_lwip_begin();
	struct tcp_pcb *listening = tcp_listen(pcb);
	cyw43_arch_lwip_end();
	return listening;
}

static err_t lockedConnect(struct tcp_pcb *pcb, const ip_addr_t *address, u16_t port, tcp_connected_fn connected)
{
	cyw43_arch_lwip_begin();
	err_t err = tcp_connect(pcb, address, port, connected);
	cyw43_arch_lwip_end();
	return err;
}

static void lockedClose(struct tcp_pcb *pcb)
{
	cyw43_arch_lwip_begin();
	if (ERR_OK != tcp_close(pcb))
		tcp_abort(pcb);
	cyw43_arch_lwip_end();
}

static err_t lockedOutput(struct tcp_pcb *pcb)
{
	cyw43_arch_lwip_begin();
	err_t err = tcp_output(pcb);
	cyw43_arch_lwip_end();
	return err;
}

static err_t lockedWrite(struct tcp_pcb *pcb, const void *data, u16_t length, u8_t flags)
{
	cyw43_arch_lwip_begin();
	err_t err = tcp_write(pcb, data, length, flags);
	cyw43_arch_lwip_end();
	return err;
}

static void lockedRecved(struct tcp_pcb *pcb, u16_t length)
{
	cyw43_arch_lwip_begin();
	tcp_recved(pcb, length);
	cyw43_arch_lwip_end();
}

static u8_t lockedPbufFree(struct pbuf *p)
{
	cyw43_arch_lwip_begin();
	u8_t freed = pbuf_free(p);
	cyw43_arch_lwip_end();
	return freed;
}

#undef tcp_new_safe
#undef tcp_bind_safe
#undef tcp_listen_safe
#undef tcp_connect_safe
#undef tcp_close_safe
#undef tcp_output_safe
#undef tcp_write_safe
#undef tcp_recved_safe
#undef pbuf_free_safe
#define tcp_new_safe lockedNew
#define tcp_bind_safe lockedBind
#define tcp_listen_safe lockedListen
#define tcp_connect_safe lockedConnect
#define tcp_close_safe lockedClose
#define tcp_output_safe lockedOutput
#define tcp_write_safe lockedWrite
#define tcp_recved_safe lockedRecved
#define pbuf_free_safe lockedPbufFree

/* The SDK's file, found from modules/network/socket/lwip, a directory the build's include path has. */
#include "../../../io/socket/lwip/tcp.c"
