/*
 * The Pico W's embedded:io/socket/tcp and listener: the Moddable SDK's lwIP socket
 * (modules/io/socket/lwip/tcp.c) with each lwIP call made under the lwIP lock and lwIP's own close
 * (lwip-locked.h), and the project's guards against pcbs lwIP has freed or never made
 * (../socket-lwip/tcp-guards.h). Without the lock, an acknowledgement freeing a pcb's sent segments
 * in lwIP's interrupt while the main loop is inside tcp_write breaks the pcb's queue count (lwIP's
 * assertion "pcb->snd_queuelen >= pbuf_clen(next->p)", docs/pico.md).
 */

#include "lwip/tcp.h"
#include "xsmc.h"
#include "xsHost.h"
#include "modInstrumentation.h"
#include "mc.xs.h"
#include "builtinCommon.h"
#include "lwip-locked.h"

/* xsID_address xsID_from xsID_nodelay xsID_onError xsID_onReadable xsID_onWritable xsID_port */
#include "../socket-lwip/tcp-guards.h"
