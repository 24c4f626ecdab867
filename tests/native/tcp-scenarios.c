/*
 * Clients a lab network has, played against a build of the SDK's lwIP TCP socket and listener on the
 * fake lwIP (fake-lwip.c) and fake XS (fake-xs.c), with an application that uses them as
 * src/device/server.ts and transport.ts do: on the listener's onReadable it reads each socket, reads
 * its remoteAddress, adopts it with new TCP({from}) (closing it when that throws), reads what arrives,
 * writes an answer, and closes on an error, at once or after lingering. Prints what the fake lwIP
 * counted as one JSON line. Usage: tcp-scenarios SCENARIO [--locked] (fin-rst, fin-rst-linger, scanner,
 * scanner-after-read, null-accept, early-request, adopt-data, adopt-rst, close-fin; --locked counts lwIP calls the main loop makes outside
 * the lock). early-request prints how many bytes of a request sent before the accept the application
 * read before lwIP's next fast timer (earlyRead) and after it (lateRead).
 */

#include <stdio.h>
#include <string.h>
#include "fake-xs.h"
#include "fake-lwip.h"

void xs_tcp_constructor(xsMachine *the);
void xs_tcp_close(xsMachine *the);
void xs_tcp_read(xsMachine *the);
void xs_tcp_write(xsMachine *the);
void xs_tcp_get_remoteAddress(xsMachine *the);
void xs_listener_constructor(xsMachine *the);
void xs_listener_read(xsMachine *the);

#define SOCKETS 64
static xsMachine machine;
static xsMachine *the = &machine;
static FakeObject objects[SOCKETS + 1];
static xsSlot sockets[SOCKETS];	/* the application's adopted sockets */
static int socketCount, waiting, closeOnError = 1, errors, bytesRead, socketErrors, wouldBlock;
/* give-up-write, give-up-output: lwIP's work made due after the read, or after the write, of onReadable */
static void (*dueAfterRead)(void), (*dueAfterWrite)(void);
static xsSlot listener;
static xsSlot onListenerSlot, onReadableSlot, onWritableSlot, onErrorSlot;

static void callOn(xsSlot *self, int argc, xsSlot arg, void (*native)(xsMachine *))
{
	xsSlot saveThis = the->thisSlot, saveResult = the->result, saveArg = the->args[0];
	int saveArgc = the->argc;
	the->thisSlot = *self;
	the->args[0] = arg;
	the->argc = argc;
	memset(&the->result, 0, sizeof(xsSlot));
	if (fakeNative(the, native)) {
		errors++;
		if (strstr(the->error, "would block"))
			wouldBlock++;
	}
	saveResult = the->result;
	the->thisSlot = saveThis;
	the->args[0] = saveArg;
	the->argc = saveArgc;
	the->result = saveResult;
}

static xsSlot newObject(void)
{
	static int next;
	xsSlot slot = { .kind = kFakeHost, .object = &objects[next] };
	objects[next].id = next;
	next++;
	return slot;
}

static void onListener(xsMachine *m, xsSlot *self, int argc, int count) { waiting = count; }

static void onReadable(xsMachine *m, xsSlot *self, int argc, int count)
{
	xsSlot buffer = { .kind = kFakeBuffer, .integer = count, .buffer = calloc(1, count) };
	callOn(self, 1, buffer, xs_tcp_read);
	bytesRead += count;
	free(buffer.buffer);
	if (dueAfterRead)
		fakeLwipDue = dueAfterRead;
	xsSlot answer = { .kind = kFakeBuffer, .integer = 500, .buffer = calloc(1, 500) };
	callOn(self, 1, answer, xs_tcp_write);
	free(answer.buffer);
	if (dueAfterWrite)
		fakeLwipDue = dueAfterWrite;
}

static void onWritable(xsMachine *m, xsSlot *self, int argc, int count) {}

static void onError(xsMachine *m, xsSlot *self, int argc, int count)
{
	socketErrors++;
	if (closeOnError)
		callOn(self, 0, (xsSlot){ 0 }, xs_tcp_close);
}

/* server.ts accept(): read each socket, its address, then adopt it (transport.ts). */
static void acceptAll(void)
{
	for (int i = 0, n = waiting; i < n; i++) {
		xsSlot accepted = newObject();
		callOn(&accepted, 0, (xsSlot){ 0 }, xs_tcp_constructor);
		callOn(&listener, 1, accepted, xs_listener_read);
		if (kFakeHost != the->result.kind)
			break;
		callOn(&accepted, 0, (xsSlot){ 0 }, xs_tcp_get_remoteAddress);
		FakeOptions *options = calloc(1, sizeof(FakeOptions));
		options->from = calloc(1, sizeof(xsSlot));
		*options->from = accepted;
		options->port = -1;
		options->onReadable = &onReadableSlot;
		options->onWritable = &onWritableSlot;
		options->onError = &onErrorSlot;
		xsSlot socket = newObject();
		int before = errors;
		callOn(&socket, 1, (xsSlot){ .kind = kFakeOptions, .options = options }, xs_tcp_constructor);
		if (errors != before)
			callOn(&accepted, 0, (xsSlot){ 0 }, xs_tcp_close);	/* closeQuietly */
		else
			sockets[socketCount++] = socket;
	}
	waiting = 0;
}

static void service(void)
{
	fakeService(the);
	if (waiting)
		acceptAll();
	fakeService(the);
}

static void listen(void)
{
	onListenerSlot.function = onListener;
	onReadableSlot.function = onReadable;
	onWritableSlot.function = onWritable;
	onErrorSlot.function = onError;
	static FakeOptions options = { .port = 80 };
	options.onReadable = &onListenerSlot;
	listener = newObject();
	callOn(&listener, 1, (xsSlot){ .kind = kFakeOptions, .options = &options }, xs_listener_constructor);
}

/* What lwIP does in the adoption window (adopt-data, adopt-rst). */
static struct tcp_pcb *adopting;
static void segmentNow(void) { fakeData(adopting, 80); }
static void rstNow(void) { fakeRst(adopting); }

/* The connection lwIP gives up on (give-up-*). */
static struct tcp_pcb *closing;
static void finNow(void) { fakeFin(closing); }
static struct tcp_pcb *givingUp;
static void giveUpNow(void) { fakeGiveUp(givingUp); }

/* Four clients after the rest: each is answered and closes; no two share a pcb. */
static void fourClients(void)
{
	struct tcp_pcb *clients[4];
	for (int i = 0; i < 4; i++)
		clients[i] = fakeConnect();
	service();
	for (int i = 0; i < 4; i++)
		if (clients[i]) fakeData(clients[i], 80);
	service();
	for (int i = 0; i < 4; i++)
		if (clients[i]) fakeFin(clients[i]);
	service();
}

int main(int argc, char **argv)
{
	const char *scenario = (argc > 1) ? argv[1] : "";
	fakeCheckLock = (argc > 2) && !strcmp(argv[2], "--locked");
	fakePoolSize(5);	/* lwIP's MEMP_NUM_TCP_PCB default, the Pico W's */
	listen();
	if (!strcmp(scenario, "fin-rst") || !strcmp(scenario, "fin-rst-linger")) {
		/* A client that aborts mid-answer: its FIN crosses our segment, its RST follows. */
		closeOnError = strcmp(scenario, "fin-rst-linger");
		struct tcp_pcb *c = fakeConnect();
		service();
		fakeData(c, 80);
		service();
		fakeFin(c);
		service();
		fakeRst(c);
		service();
		for (int i = 0; i < socketCount; i++)
			callOn(&sockets[i], 0, (xsSlot){ 0 }, xs_tcp_close);	/* its linger ends */
		service();
	}
	else if (!strcmp(scenario, "scanner")) {
		/* Connects and resets before the application has read it from the listener. */
		struct tcp_pcb *c = fakeConnect();
		fakeRst(c);
		service();
	}
	else if (!strcmp(scenario, "scanner-after-read")) {
		/* Resets after its first bytes, while the application still has to take it in. */
		struct tcp_pcb *c = fakeConnect();
		fakeData(c, 10);
		fakeRst(c);
		service();
	}
	else if (!strcmp(scenario, "null-accept")) {
		/* More clients at once than lwIP has pcbs: the last are accepted with a NULL pcb. */
		for (int i = 0; i < 7; i++)
			fakeConnect();
		service();
		for (int i = 0; i < socketCount; i++)
			callOn(&sockets[i], 0, (xsSlot){ 0 }, xs_tcp_close);
		service();
	}
	else if (!strcmp(scenario, "early-request")) {
		/* Sends its request as soon as it is connected, before the application has read the listener. */
		struct tcp_pcb *c = fakeConnect();
		fakeData(c, 80);
		service();
		service();
		int early = bytesRead;
		fakeFastTimer();
		service();
		printf("{\"earlyRead\":%d,\"lateRead\":%d}\n", early, bytesRead - early);
		return 0;
	}
	else if (!strcmp(scenario, "fin-before-read")) {
		/* A TCP health probe (nc -z, a load balancer): connects, then its FIN before a byte, before the
		   application has read the listener. The socket must learn its peer has gone and close. */
		struct tcp_pcb *c = fakeConnect();
		fakeFin(c);
		service();
		service();
		printf("{\"socketErrors\":%d,\"pcbOwned\":%d,\"doubleFrees\":%d,\"callsOnFreed\":%d}\n", socketErrors,
			c->inUse && c->owned, fakeCounts.doubleFrees, fakeCounts.callsOnFreed);
		return 0;
	}
	else if (!strcmp(scenario, "adopt-data") || !strcmp(scenario, "adopt-rst")) {
		/* lwIP runs in the middle of new TCP({from}) (an interrupt, or the tcpip task on the other core):
		   the request's segment, or the client's RST, arrives as the SDK lets the from-socket's record go
		   (doClose's xsForget, tcp.c:283), before it points the pcb at the new record (:217-219). */
		adopting = fakeConnect();
		fakeForgetHook = strcmp(scenario, "adopt-rst") ? segmentNow : rstNow;
		service();
		service();
		fakeFastTimer();
		service();
		for (int i = 0; i < socketCount; i++)
			callOn(&sockets[i], 0, (xsSlot){ 0 }, xs_tcp_close);
		service();
		printf("{\"bytesRead\":%d,\"socketErrors\":%d,\"doubleFrees\":%d,\"callsOnFreed\":%d,\"staleCallbacks\":%d,\"pcbsInUse\":%d}\n",
			bytesRead, socketErrors, fakeCounts.doubleFrees, fakeCounts.callsOnFreed, fakeCounts.staleCallbacks, fakePcbsInUse());
		return 0;
	}
	else if (!strncmp(scenario, "give-up-", 8)) {
		/* lwIP gives up on a connection (its retransmissions or keep-alives unanswered) and frees its pcb,
		   its error callback told after the free: while the socket idles (give-up-idle), or just before
		   the main loop's next lwIP call, which read the pcb a moment earlier: the read's tcp_recved
		   (give-up-read), the answer's write (give-up-write), its tcp_output (give-up-output). */
		const char *when = scenario + 8;
		givingUp = fakeConnect();
		service();
		if (!strcmp(when, "read"))
			fakeLwipDue = giveUpNow;
		else if (!strcmp(when, "write"))
			dueAfterRead = giveUpNow;
		else if (!strcmp(when, "output"))
			dueAfterWrite = giveUpNow;
		fakeData(givingUp, 80);
		service();
		dueAfterRead = dueAfterWrite = NULL;
		if (!strcmp(when, "idle"))
			fakeGiveUp(givingUp);
		service();
		printf("{\"bytesRead\":%d,\"socketErrors\":%d,\"doubleFrees\":%d,\"callsOnFreed\":%d,\"staleCallbacks\":%d,\"pcbsInUse\":%d}\n",
			bytesRead, socketErrors, fakeCounts.doubleFrees, fakeCounts.callsOnFreed, fakeCounts.staleCallbacks, fakePcbsInUse());
		return 0;
	}
	else if (!strcmp(scenario, "close-fin")) {
		/* The client's FIN is due in lwIP (a message ahead in its task's queue on the ESP32, its interrupt
		   on the Pico W) as the application closes its socket after answering: lwIP tells the socket of
		   it just before the close reaches lwIP. */
		closeOnError = 0;
		closing = fakeConnect();
		service();
		fakeData(closing, 80);
		service();
		fakeLwipDue = finNow;
		for (int i = 0; i < socketCount; i++)
			callOn(&sockets[i], 0, (xsSlot){ 0 }, xs_tcp_close);
		service();
		service();
		printf("{\"staleMessages\":%d,\"doubleFrees\":%d,\"callsOnFreed\":%d,\"staleCallbacks\":%d,\"remembered\":%d}\n",
			fakeStaleMessages, fakeCounts.doubleFrees, fakeCounts.callsOnFreed, fakeCounts.staleCallbacks, fakeRemembered);
		return 0;
	}
	else if (!strcmp(scenario, "debugger-holds")) {
		/* A debug build whose machine is stopped in xsbug refuses a newcomer with ERR_ABRT, which tells
		   lwIP the callback aborted the pcb itself (tcp_in.c:958-965): the pcb must not stay held. */
		fakeDebugLoop = 1;
		fakeConnect();
		fakeDebugLoop = 0;
		service();
		printf("{\"pcbsInUse\":%d,\"doubleFrees\":%d,\"callsOnFreed\":%d}\n", fakePcbsInUse(), fakeCounts.doubleFrees,
			fakeCounts.callsOnFreed);
		return 0;
	}
	else if (!strcmp(scenario, "heap-full")) {
		/* lwIP's heap has no room for the answer's segment once: the write throws "would block" and the
		   socket stays whole (no error delivered), so the same answer goes with the next request. */
		struct tcp_pcb *c = fakeConnect();
		service();
		fakeHeapRefusals = 1;
		fakeData(c, 80);
		service();
		int refused = errors, errorsSeen = socketErrors, trace = fakeTraces;
		fakeData(c, 80);
		service();
		printf("{\"refused\":%d,\"wouldBlock\":%d,\"socketErrors\":%d,\"traced\":%d,\"laterRefused\":%d}\n",
			refused, wouldBlock, errorsSeen + socketErrors, trace, errors - refused);
		return 0;
	}
	else {
		fprintf(stderr, "unknown scenario %s\n", scenario);
		return 2;
	}
	closeOnError = 1;
	fourClients();
	for (int i = 0; i < socketCount; i++)	/* the application closes what it holds (server.ts close()) */
		callOn(&sockets[i], 0, (xsSlot){ 0 }, xs_tcp_close);
	service();
	printf("{\"doubleFrees\":%d,\"callsOnFreed\":%d,\"sharedPcbs\":%d,\"staleCallbacks\":%d,\"unlocked\":%d,\"unlockedCall\":\"%s\",\"nullAccepts\":%d,\"remembered\":%d}\n",
		fakeCounts.doubleFrees, fakeCounts.callsOnFreed, fakeCounts.sharedPcbs, fakeCounts.staleCallbacks,
		fakeCounts.unlocked, fakeCounts.unlockedCall ? fakeCounts.unlockedCall : "", fakeCounts.nullAccepts, fakeRemembered);
	return 0;
}
