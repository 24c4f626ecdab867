/*
 * What the Pico W image asks of every C file it compiles, XS and the SDK's modules among them: read
 * first, before the file's own headers.
 *
 * The manifest's "build" PICO_C_DEFINES is `-include` of this file. Moddable's Pico build passes
 * PICO_C_DEFINES to every compile (tools/mcconfig/make.pico.mk C_DEFINES) and writes the value as one
 * word, so the options are here rather than as a list of flags. The path is written ${MAIN_DIR}, which
 * make expands (mcconfig resolves only the $(...) form, and knows no MAIN_DIR).
 */

/*
 * The SDK's digital driver reaches the Wi-Fi chip's GPIO (the LED) only when WIFI_GPIO is set for C
 * (modules/io/digital/pico/digitalbank.c:244); the pico_w target sets it for make alone.
 */
#define WIFI_GPIO 1

/*
 * XS remembers, of the last 4 strings it measured, whether each is ASCII and its length
 * (xs/sources/xsString.c fxCacheStringInfo; the option of xsAll.h:51, which the SDK's desktop builds
 * set and its device builds leave at 0). Without it every indexOf, slice, charCodeAt and `length` of
 * a string walks the string from its first byte to turn a char offset into a byte offset: on the
 * emulated Pico W a GET of one value spent about 200,000 cycles there, with the byte reads
 * (make pico-emu-figures, PICO_EMU_CALLERS=fxUnicodeLength,fxUnicodeToUTF8Offset,espRead8). The cache
 * is emptied whenever the collector moves chunks (xsMemory.c fxCollect); it takes 108 bytes of the C heap.
 */
#define mxStringInfoCacheLength 4

/*
 * -O2, as the SDK's Pico make file means (make.pico.mk:131 HW_OPT = -O2): its C_DEFINES add -Os after
 * it (make.pico.mk:945-951), and the last -O on a command line wins, so XS and everything else was
 * built for size. On the emulated Pico W a GET of one value took 1,360,352 cycles with -Os and
 * 1,241,653 with -O2 (the interpreter's loop alone 573,481 and 523,522); the image's code grows by
 * 33 KB (arm-none-eabi-size: text 1,264,784 and 1,298,152 bytes). memcpy and memset stay in RAM
 * (native/mem-copy/mem-copy-pico.c, newlib's memset), so a loop that -O2 makes into one of them
 * inside a function that runs while the flash is being written does not reach for the flash.
 */
#pragma GCC optimize ("O2")

/*
 * A full C heap refuses, it does not restart the module. pico-sdk's malloc wrapper panics when an
 * allocation fails (pico_malloc/malloc.c check_alloc, PICO_MALLOC_PANIC defaults to 1 and Moddable's
 * make.pico.mk leaves it); the panic restarts the chip. With 0 malloc answers NULL as C expects
 * (newlib's _sbrk stops at __StackLimit itself), and every caller that checks says so: the socket
 * guards refuse the connection (native/socket-lwip/tcp-guards.h, ERR_MEM), the SDK's modules throw
 * "no memory", which the firmware answers as an error. XS's own heap is allocated at start.
 */
#define PICO_MALLOC_PANIC 0

/*
 * TIME-WAIT (2 MSL) of 2 s rather than lwIP's 120 s (lwip/priv/tcp_priv.h:134 TCP_MSL 60000). The
 * module closes first after an answer, so it holds the connection in TIME-WAIT; lwIP answers a new SYN
 * from the same client port with an ACK of the old connection and ignores the client's RST
 * (core/tcp_in.c tcp_timewait_input, RFC 1337), so a client that met its own port again (Linux picks
 * them at random) got no answer for up to 2 minutes (tests/pico-emu/port-reuse-client.ts). No segment
 * of a lab's LAN lives a second. The ESP32 sets the same through CONFIG_LWIP_TCP_MSL.
 */
#define TCP_MSL 1000UL
