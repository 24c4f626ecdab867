/* The fake of lwIP's tcpip_api_call for the host harness: runs the call as lwIP's own thread would. */
#ifndef FAKE_TCPIP_PRIV_H
#define FAKE_TCPIP_PRIV_H
#include "lwip/tcp.h"
struct tcpip_api_call_data { int unused; };
typedef err_t (*tcpip_api_call_fn)(struct tcpip_api_call_data *call);
err_t tcpip_api_call(tcpip_api_call_fn fn, struct tcpip_api_call_data *call);
#endif
