/*
 * The Pico W's legacy socket module (the SDK's SNTP client uses it): the Moddable SDK's
 * modules/network/socket/lwip/modSocket.c, which the manifest's pico section leaves out, with its lwIP
 * calls made under the lwIP lock and lwIP's own close (lwip-locked.h). The SDK makes them bare
 * (modSocket.c:312-341, 396, 639, 659-664).
 */

#include "xsmc.h"
#include "xsHost.h"
#include "lwip-locked.h"
#include "lwip/raw.h"

/* The raw socket's calls (modSocket.c:317, 330, 436, 659-664), which modLwipSafe.h has no name for. */
static struct raw_pcb *lockedRawNew(u8_t protocol) { return LOCKED(struct raw_pcb *, raw_new(protocol)); }
static err_t lockedRawBind(struct raw_pcb *pcb, const ip_addr_t *address) { return LOCKED(err_t, raw_bind(pcb, address)); }
static void lockedRawRemove(struct raw_pcb *pcb) { LOCKED_DO(raw_remove(pcb)); }
static err_t lockedRawSendto(struct raw_pcb *pcb, struct pbuf *p, const ip_addr_t *to) { return LOCKED(err_t, raw_sendto(pcb, p, to)); }
static struct pbuf *lockedPbufAlloc(pbuf_layer layer, u16_t length, pbuf_type type) { return LOCKED(struct pbuf *, pbuf_alloc(layer, length, type)); }

#define raw_new lockedRawNew
#define raw_bind lockedRawBind
#define raw_remove lockedRawRemove
#define raw_sendto lockedRawSendto
#define pbuf_alloc lockedPbufAlloc

/* xsid: modSocket.c uses xsID_ArrayBuffer xsID_Number xsID_String xsID_address xsID_callback xsID_count
   xsID_enable xsID_host xsID_idle xsID_interval xsID_keepalive xsID_kind xsID_listener xsID_multicast
   xsID_noDelay xsID_port xsID_protocol xsID_ttl */
#include "../../../network/socket/lwip/modSocket.c"
