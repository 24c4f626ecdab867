/*
 * The Moddable SDK's Pico message queue for the main loop harness (loop-scenarios.c), as
 * xs/platforms/pico/xsHost.c:362-491 and 516-519 have it: modMessagePostToMachine and
 * modMessagePostToMachineFromISR append to one queue; fxQueuePromiseJobs posts through
 * modMessagePostToMachine inside this file (so a link's --wrap does not see that call, as it does not
 * in xsHost.c); modMessageService delivers what is queued, then runs the SDK's wait, which leaves at
 * once while `until` lies ahead (its test `absolute_time_diff_us(until, now) < 1000`). The fake clock
 * and WFE are the harness's (fakeNow, best_effort_wfe_or_timeout).
 */
#include <stdlib.h>
#include "xsmc.h"
#include "pico/time.h"

extern uint64_t fakeNow;

typedef struct Message { struct Message *next; modMessageDeliver callback; void *refcon; } Message;
static Message *queue;

static void append(modMessageDeliver callback, void *refcon)
{
	Message *m = calloc(1, sizeof(Message)), **at = &queue;
	m->callback = callback;
	m->refcon = refcon;
	while (*at)
		at = &(*at)->next;
	*at = m;
}

int modMessagePostToMachine(xsMachine *the, uint8_t *message, uint16_t messageLength, modMessageDeliver callback, void *refcon)
{
	append(callback, refcon);
	return 0;
}

int modMessagePostToMachineFromISR(xsMachine *the, modMessageDeliver callback, void *refcon)
{
	append(callback, refcon);
	return 0;
}

void fakeRunPromiseJobs(void *the, void *refcon, uint8_t *message, uint16_t length);

void fxQueuePromiseJobs(xsMachine *the)
{
	modMessagePostToMachine(the, NULL, 0, fakeRunPromiseJobs, NULL);
}

int modMessageService(xsMachine *the, int maxDelayMS)
{
	absolute_time_t until = make_timeout_time_ms(maxDelayMS);
	Message *last = queue;
	while (last && last->next)
		last = last->next;
	while (queue && last) { /* what was queued on entry: the SDK marks those */
		Message *m = queue;
		queue = m->next;
		m->callback(the, m->refcon, NULL, 0);
		int done = m == last;
		free(m);
		if (done)
			break;
	}
	while (!queue) {
		int64_t diff = (int64_t)(fakeNow - until); /* absolute_time_diff_us(until, now) */
		if (diff < 1000)
			break;
		if (best_effort_wfe_or_timeout(until))
			break;
	}
	return queue ? 1 : 0;
}
