#ifndef FAKE_LWIP_RAW_H
#define FAKE_LWIP_RAW_H
/* The fake of lwIP raw sockets for the host harness: nothing the sockets it compiles call. */
#include "lwip/tcp.h"
#endif
