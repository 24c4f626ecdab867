/*
 * The Pico W's Net.resolve (the SDK's SNTP client resolves its server with it): the Moddable SDK's
 * modules/network/net/pico/modResolve.c, which the manifest's pico section leaves out, with its
 * dns_gethostbyname made under the lwIP lock (lwip-locked.h); the SDK makes it bare (:99), and lwIP's
 * DNS then allocates and frees pbufs beside lwIP's interrupt.
 */

#include "xs.h"
#include "xsHost.h"
#include "lwip-locked.h"

#define dns_gethostbyname lockedDnsGethostbyname

#include "../../../network/net/pico/modResolve.c"
