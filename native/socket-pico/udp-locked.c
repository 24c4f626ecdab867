/*
 * The Pico W's embedded:io/socket/udp (the module's mDNS socket): the Moddable SDK's lwIP UDP socket
 * (modules/io/socket/lwip/udp.c) with its lwIP calls made under the lwIP lock (lwip-locked.h). The SDK
 * makes them bare (udp.c:104-115, 142, 193, 226): a pbuf_free after a read, in the main loop, races
 * the Wi-Fi driver's pbuf_alloc for the next frame in lwIP's interrupt (cyw43_lwip.c:281).
 */

#include "xsmc.h"
#include "xsHost.h"
#include "lwip-locked.h"

/* xsid: udp.c uses xsID_address xsID_onReadable xsID_port xsID_timeToLive */
#include "../../../io/socket/lwip/udp.c"
