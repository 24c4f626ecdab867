/*
 * newlib's malloc lock for the Pico W, with interrupts masked while it is held. The Pico W build runs
 * lwIP's input and the SDK's socket callbacks in a low-priority interrupt
 * (pico_async_context/async_context_threadsafe_background.c:289-303), and those callbacks allocate
 * (modules/io/socket/lwip/tcp.c:563, 843; udp.c:316) and post messages, which allocate too
 * (xs/platforms/pico/xsHost.c:391), while the main loop frees every delivered message
 * (xsHost.c:470). newlib's own __malloc_lock is empty in this build, and pico-sdk's malloc wrapper
 * takes no lock without multicore (pico_malloc/malloc.c:27-29; its mutex could not be taken in an
 * interrupt anyway): an interrupt landing inside malloc or free corrupted the heap. These strong
 * definitions take the place of newlib's (the linker takes libc's mlock.o only for symbols still
 * undefined). newlib's malloc calls the lock recursively (realloc within malloc's lock), hence the count.
 * Cost: 8 bytes of RAM; interrupts wait for at most one malloc or free.
 */

#include <stdint.h>
#include <reent.h>
#include "hardware/sync.h"

static uint32_t mallocSavedInterrupts;
static uint32_t mallocDepth;

void __malloc_lock(struct _reent *reent)
{
	uint32_t saved = save_and_disable_interrupts();
	if (0 == mallocDepth++)
		mallocSavedInterrupts = saved;
}

void __malloc_unlock(struct _reent *reent)
{
	if (0 == --mallocDepth)
		restore_interrupts(mallocSavedInterrupts);
}
