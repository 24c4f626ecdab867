/*
 * The Pico port's main loop on the host (tests/native-main-loop.test.ts): xsmain.c's loop (run the
 * due timers, then modMessageService(the, modTimersNext())) over the SDK's message queue
 * (fake-pico-loop.c), with a fake microsecond clock: each turn of the loop costs TURN_US, a WFE sleeps
 * until its timeout or the next interrupt, and an interrupt that comes while the core is awake sets the
 * event register, so the next WFE returns at once (as exception entry and return do on the chip).
 * Built with native/main-loop/message-wait-pico.c and the manifest's --wrap flags, or without (the
 * SDK's loop alone). Prints, as JSON: the loop's turns over 2 s with one timer a second; how long a
 * message posted by an interrupt, a promise job queued by its callback, and a timer of 5 ms set by it
 * waited; the longest gap between turns over 5 s with no timer at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include "xsmc.h"
#include "pico/time.h"

#define TURN_US 38		/* an idle turn of the SDK's loop on the emulated board: about 4,800 cycles */
#define FAR ((uint64_t)1 << 62)

int modMessageService(xsMachine *the, int maxDelayMS);
int modMessagePostToMachineFromISR(xsMachine *the, modMessageDeliver callback, void *refcon);
void fxQueuePromiseJobs(xsMachine *the);

uint64_t fakeNow;
uint32_t fakePrimask;			/* hardware/sync.h's mask: interrupts come only between the loop's steps */
void fakeInterruptsRestored(void) {}
static int event;				/* the event register */
static uint64_t irqAt = FAR;	/* the next interrupt */
static uint64_t timers[2] = { FAR, FAR };	/* [0] every second when `periodic`; [1] a one-shot */
static int periodic;
static uint64_t postedAt, deliveredAt, jobAt, timerSetAt, timerAt;
static int turns;

absolute_time_t make_timeout_time_ms(uint32_t ms) { return fakeNow + (uint64_t)ms * 1000; }

static void delivered(void *the, void *refcon, uint8_t *message, uint16_t length)
{
	deliveredAt = fakeNow;
	fxQueuePromiseJobs(the);		/* the callback settles a promise */
	timerSetAt = fakeNow;
	timers[1] = fakeNow + 5000;	/* and sets a timer of 5 ms */
}

void fakeRunPromiseJobs(void *the, void *refcon, uint8_t *message, uint16_t length) { jobAt = fakeNow; }

static void interrupt(void)
{
	irqAt = FAR;
	postedAt = fakeNow;
	modMessagePostToMachineFromISR(NULL, delivered, NULL);
	event = 1;
}

/* Time passes with the core awake: an interrupt due meanwhile runs. */
static void awake(uint64_t us)
{
	fakeNow += us;
	if (irqAt <= fakeNow)
		interrupt();
}

bool best_effort_wfe_or_timeout(absolute_time_t timeout)
{
	if (event) {
		event = 0;
		return fakeNow >= timeout;
	}
	uint64_t wake = irqAt < timeout ? irqAt : timeout;
	if (wake > fakeNow)
		fakeNow = wake;
	if (irqAt <= fakeNow) {
		interrupt();
		event = 0;
	}
	return fakeNow >= timeout;
}

static int timersNext(void)
{
	uint64_t next = timers[0] < timers[1] ? timers[0] : timers[1];
	if (next == FAR)
		return 60 * 60 * 1000;	/* modTimersNext with no timer: an hour */
	return next <= fakeNow ? 0 : (int)((next - fakeNow + 999) / 1000);
}

static void timersExecute(void)
{
	if (timers[0] <= fakeNow)
		timers[0] = fakeNow + 1000000;
	if (timers[1] <= fakeNow) {
		timerAt = fakeNow;
		timers[1] = FAR;
	}
}

/* xsmain.c's loop until `until`; the longest gap between two turns. */
static uint64_t loop(uint64_t until)
{
	uint64_t last = fakeNow, gap = 0;
	while (fakeNow < until) {
		timersExecute();
		modMessageService(NULL, timersNext());
		awake(TURN_US);
		turns++;
		if (fakeNow - last > gap)
			gap = fakeNow - last;
		last = fakeNow;
	}
	return gap;
}

int main(void)
{
	timers[0] = 1000000;
	loop(300000);				/* settle */
	turns = 0;
	irqAt = fakeNow + 700000;	/* an interrupt 0.7 s on */
	loop(fakeNow + 2000000);
	int idleTurns = turns;
	timers[0] = FAR;			/* no timer at all */
	uint64_t gap = loop(fakeNow + 5000000);
	printf("{\"turns\":%d,\"messageUs\":%llu,\"jobUs\":%llu,\"timerUs\":%llu,\"gapUs\":%llu}\n", idleTurns,
		(unsigned long long)(deliveredAt - postedAt), (unsigned long long)(jobAt - deliveredAt),
		(unsigned long long)(timerAt - timerSetAt), (unsigned long long)gap);
	return 0;
}
