/*
 * newlib's malloc and free against lwIP's interrupt on the Pico W, on the host: a fake newlib
 * allocator that takes __malloc_lock as newlib's does (mallocr.c: MALLOC_LOCK around its work, and
 * realloc within malloc's lock), the lock empty as the Debian arm-none-eabi newlib builds it (weak, so
 * native/malloc-lock/malloc-lock-pico.c, when linked, takes its place), and the low-priority interrupt
 * (pico_async_context's low_priority_irq_handler running the SDK's socket callbacks) raised in the middle
 * of each allocation: its handler allocates, as tcpReceive, listenerAccept and modMessagePostToMachine
 * do. Prints how often the handler entered the allocator while the main loop was inside it.
 */

#include <stdio.h>
#include <stdlib.h>
#include <reent.h>
#include "hardware/sync.h"

uint32_t fakePrimask;
static int inAllocator, reentries, raised, handled, pending;

__attribute__((weak)) void __malloc_lock(struct _reent *reent) {}
__attribute__((weak)) void __malloc_unlock(struct _reent *reent) {}

static void *fakeNewlibMalloc(size_t size, int interruptHere);

/* The low-priority interrupt's handler: the SDK's lwIP callbacks allocate a record and a message. */
static void lowPriorityIrq(void)
{
	handled++;
	free(fakeNewlibMalloc(16, 0));
	free(fakeNewlibMalloc(24, 0));
}

static void raise(void)
{
	raised++;
	if (fakePrimask)
		pending++;
	else
		lowPriorityIrq();
}

void fakeInterruptsRestored(void)
{
	while (pending) {
		pending--;
		lowPriorityIrq();
	}
}

static void *fakeNewlibMalloc(size_t size, int interruptHere)
{
	__malloc_lock(_REENT);
	if (inAllocator)
		reentries++;	/* the heap's lists are half changed: newlib's malloc corrupts them */
	inAllocator++;
	if (interruptHere)
		raise();	/* a frame from the Wi-Fi chip: lwIP's input runs */
	void *p = malloc(size);
	inAllocator--;
	__malloc_unlock(_REENT);
	return p;
}

/* realloc within malloc's lock (newlib's _realloc_r calls _malloc_r with the lock held). */
static void *fakeNewlibRealloc(size_t size)
{
	__malloc_lock(_REENT);
	void *p = fakeNewlibMalloc(size, 1);
	__malloc_unlock(_REENT);
	return p;
}

int main(void)
{
	for (int i = 0; i < 100; i++) {
		free(fakeNewlibMalloc(32, 1));
		free(fakeNewlibRealloc(64));
	}
	printf("{\"raised\":%d,\"handled\":%d,\"reentries\":%d,\"masked\":%u}\n", raised, handled, reentries, fakePrimask);
	return 0;
}
