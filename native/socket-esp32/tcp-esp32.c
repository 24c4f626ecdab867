/*
 * The ESP32's embedded:io/socket/tcp and listener: the Moddable SDK's lwIP socket
 * (modules/io/socket/lwip/tcp.c) with the project's guards against pcbs lwIP has freed or never made
 * (../socket-lwip/tcp-guards.h). ESP-IDF runs lwIP in its own task; the guards' work is done there,
 * through tcpip_api_call as the SDK's modules/network/socket/lwip/modLwipSafe.c does its calls.
 */

#include "lwip/tcp.h"
#include "lwip/priv/tcpip_priv.h"
#include "xsmc.h"
#include "xsHost.h"
#include "modInstrumentation.h"
#include "mc.xs.h"
#include "builtinCommon.h"
#include "modLwipSafe.h"

struct LwipRun {
	struct tcpip_api_call_data call;	/* first: tcpip_api_call hands this back */
	void (*fn)(void *);
	void *ctx;
};

static err_t lwipRunIn(struct tcpip_api_call_data *call)
{
	struct LwipRun *run = (struct LwipRun *)call;
	run->fn(run->ctx);
	return ERR_OK;
}

/* Runs fn(ctx) in lwIP's tcpip thread and waits for it. */
static void lwipRun(void (*fn)(void *), void *ctx)
{
	struct LwipRun run = { .fn = fn, .ctx = ctx };
	tcpip_api_call(lwipRunIn, &run.call);
}

/* lwIP's callback setters are plain stores there, made from the XS task as the SDK makes them. */
static void lwipLock(void) {}
static void lwipUnlock(void) {}

/* xsID_address xsID_from xsID_nodelay xsID_onError xsID_onReadable xsID_onWritable xsID_port */
#include "../socket-lwip/tcp-guards.h"
