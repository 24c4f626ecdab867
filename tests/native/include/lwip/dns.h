/* The fake of lwIP's DNS API for the host harness (unused by the sockets it compiles). */
#ifndef FAKE_LWIP_DNS_H
#define FAKE_LWIP_DNS_H
#include "lwip/tcp.h"
typedef void (*dns_found_callback)(const char *name, const ip_addr_t *address, void *arg);
err_t dns_gethostbyname(const char *name, ip_addr_t *address, dns_found_callback found, void *arg);
#endif
