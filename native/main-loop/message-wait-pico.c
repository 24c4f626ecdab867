/*
 * The Pico port's main loop sleeps until there is work.
 *
 * The main loop (Moddable SDK build/devices/pico/base/xsmain.c:70-80) runs the due timers, then calls
 * modMessageService(the, modTimersNext()) to deliver queued messages and wait for the next timer. The
 * SDK's modMessageService (xs/platforms/pico/xsHost.c:475-485) never waits: its loop breaks while
 * `absolute_time_diff_us(until, now) < 1000`, which holds whenever `until` lies ahead. So the core turns
 * the loop about 26,000 times a second, idle or not (a 64-bit division and a timer walk each turn).
 *
 * The link wraps modMessageService (manifest "build" LDFLAGS, -Wl,--wrap): this one first waits, on
 * WFE, until something queues a message or the next timer is due, then lets the SDK's deliver what is
 * queued without a wait of its own. Every way a message is queued is wrapped too, so that the wait
 * sees it: modMessagePostToMachine (lwIP's callbacks in pico-sdk's low-priority interrupt, the
 * sockets, the Wi-Fi module), modMessagePostToMachineFromISR (pin and other interrupts) and
 * fxQueuePromiseJobs (XS's promise jobs; xsHost.c:516-519 posts them itself, a call --wrap does not
 * see). An interrupt that posts between the test and the WFE still ends the WFE: exception entry and
 * return set the event register (ARMv6-M B1.5.18), and pico-sdk's alarm interrupt sends SEV.
 *
 * A wait is at most MAX_WAIT_MS, as long as the watchdog's feed (src/device/keepalive.ts): an idle loop
 * wakes for its timers only, and a wake-up missed would cost no more than a feed's period. The
 * SDK's modMessageService does not feed the watchdog here: its modWatchDogReset() is empty unless
 * USE_WATCHDOG is defined (xs/platforms/pico/xsHost.h:159-164), which the Pico build does not; the
 * module feeds it from a JavaScript timer (native/watchdog/pico/wdt-pico.c, xs_watchdog_feed), so a
 * main loop that stops turning stops the feed.
 */

#include "xsmc.h"
#include "xsHost.h"
#include "pico/time.h"
#include "hardware/sync.h"

#define MAX_WAIT_MS 4000

/* Messages queued since the start, counted in any context; and the count the last delivery saw. */
static volatile uint32_t gPosted;
static uint32_t gDelivered;

/* Counted with interrupts masked (and their mask put back as it was): a post from the main loop and one
   from an interrupt may meet. */
static void counted(void)
{
	uint32_t mask = save_and_disable_interrupts();
	gPosted++;
	restore_interrupts(mask);
}

int __real_modMessageService(xsMachine *the, int maxDelayMS);
int __real_modMessagePostToMachine(xsMachine *the, uint8_t *message, uint16_t messageLength, modMessageDeliver callback, void *refcon);
int __real_modMessagePostToMachineFromISR(xsMachine *the, modMessageDeliver callback, void *refcon);
void __real_fxQueuePromiseJobs(xsMachine *the);

int __wrap_modMessagePostToMachine(xsMachine *the, uint8_t *message, uint16_t messageLength, modMessageDeliver callback, void *refcon)
{
	int result = __real_modMessagePostToMachine(the, message, messageLength, callback, refcon);
	counted();
	return result;
}

int __wrap_modMessagePostToMachineFromISR(xsMachine *the, modMessageDeliver callback, void *refcon)
{
	int result = __real_modMessagePostToMachineFromISR(the, callback, refcon);
	counted();
	return result;
}

void __wrap_fxQueuePromiseJobs(xsMachine *the)
{
	__real_fxQueuePromiseJobs(the);
	counted();
}

int __wrap_modMessageService(xsMachine *the, int maxDelayMS)
{
	if (maxDelayMS > 0 && gPosted == gDelivered) {
		absolute_time_t until = make_timeout_time_ms(maxDelayMS < MAX_WAIT_MS ? maxDelayMS : MAX_WAIT_MS);
		while (gPosted == gDelivered && !best_effort_wfe_or_timeout(until))
			;
	}
	gDelivered = gPosted; /* read before delivering: what is posted meanwhile is seen at the next turn */
	return __real_modMessageService(the, 0);
}
