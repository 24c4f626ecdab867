/*
 * The module's mDNS traffic played against a build of the SDK's lwIP UDP socket on the fake lwIP
 * (fake-lwip.c, counting lwIP calls the main loop makes outside the lwIP lock) and fake XS
 * (fake-xs.c): queries arrive in lwIP's input, the application reads each (src/dns/ as the mDNS
 * socket's onReadable does) and answers it, then closes the socket. Prints the counts as one JSON line.
 */

#include <stdio.h>
#include "fake-xs.h"
#include "fake-lwip.h"

void xs_udp_constructor(xsMachine *the);
void xs_udp_close(xsMachine *the);
void xs_udp_read(xsMachine *the);
void xs_udp_write(xsMachine *the);

static xsMachine machine;
static xsMachine *the = &machine;
static FakeObject object;
static xsSlot socket, onReadableSlot;

static void run(int argc, void (*native)(xsMachine *))
{
	the->thisSlot = socket;
	the->argc = argc;
	memset(&the->result, 0, sizeof(xsSlot));
	if (fakeNative(the, native))
		fprintf(stderr, "threw: %s\n", the->error);
}

static void onReadable(xsMachine *m, xsSlot *self, int argc, int count)
{
	for (int i = 0; i < count; i++) {
		run(0, xs_udp_read);
		static uint8_t answer[100];
		the->args[0] = (xsSlot){ .kind = kFakeBuffer, .integer = sizeof(answer), .buffer = answer };
		the->args[1] = (xsSlot){ .kind = kFakeString, .text = "224.0.0.251" };
		the->args[2] = (xsSlot){ .kind = kFakeInteger, .integer = 5353 };
		run(3, xs_udp_write);
	}
}

int main(int argc, char **argv)
{
	static FakeOptions options = { .port = 5353 };
	onReadableSlot.function = onReadable;
	options.onReadable = &onReadableSlot;
	socket = (xsSlot){ .kind = kFakeHost, .object = &object };
	the->args[0] = (xsSlot){ .kind = kFakeOptions, .options = &options };
	fakeCheckLock = 1;
	run(1, xs_udp_constructor);
	for (int i = 0; i < 20; i++) {
		fakeUdpPacket(fakeLastUdp, 40);
		fakeUdpPacket(fakeLastUdp, 60);
		fakeService(the);
	}
	run(0, xs_udp_close);
	fakeService(the);
	printf("{\"unlocked\":%d,\"unlockedCall\":\"%s\"}\n", fakeCounts.unlocked, fakeCounts.unlockedCall ? fakeCounts.unlockedCall : "");
	return 0;
}
