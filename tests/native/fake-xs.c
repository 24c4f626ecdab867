/* The fake XS machine's functions (include/xsmc.h) and its message queue. */

#include <stdio.h>
#include "xsmc.h"
#include "builtinCommon.h"
#include "mc.xs.h"
#include "fake-xs.h"

int fakeRemembered;
void (*fakeForgetHook)(void);

void fakeForget(void)
{
	void (*hook)(void) = fakeForgetHook;
	fakeRemembered--;
	fakeForgetHook = NULL;
	if (hook)
		hook();
}
int fakeTraces;		/* "tcp write failed" and other traces */
int fakeDebugLoop;		/* a debug build's machine is stopped in xsbug (fxInNetworkDebugLoop) */

uint8_t fxInNetworkDebugLoop(xsMachine *the) { return (uint8_t)fakeDebugLoop; }

#define LIVE_MAX 256
static const void *live[LIVE_MAX];

void *fakeMalloc(size_t size) { return fakeCalloc(1, size); }

void *fakeCalloc(size_t count, size_t size)
{
	void *data = calloc(count, size);
	for (int i = 0; i < LIVE_MAX; i++)
		if (!live[i]) { live[i] = data; break; }
	return data;
}

void fakeFree(void *data)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == data) live[i] = NULL;
	free(data);
}

int fakeLive(const void *data)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == data) return 1;
	return 0;
}

void fakeThrow(xsMachine *the, const char *message)
{
	strncpy(the->error, message, sizeof(the->error) - 1);
	longjmp(*the->abort, 1);
}

int fakeHas(xsMachine *the, xsSlot *object, int id)
{
	FakeOptions *o = object->options;
	if (!o) return 0;
	if (xsID_from == id) return NULL != o->from;
	if (xsID_port == id) return o->port >= 0;
	if (xsID_address == id) return NULL != o->address;
	return 0;
}

void fakeGet(xsMachine *the, xsSlot *result, xsSlot *object, int id)
{
	FakeOptions *o = object->options;
	memset(result, 0, sizeof(*result));
	if (xsID_from == id) *result = *o->from;
	else if (xsID_port == id) { result->kind = kFakeInteger; result->integer = o->port; }
	else if (xsID_address == id) { result->kind = kFakeString; strncpy(result->text, o->address, sizeof(result->text) - 1); }
}

xsSlot *fakeCallback(xsMachine *the, int id)
{
	FakeOptions *o = xsArg(0).options;
	if (xsID_onReadable == id) return o->onReadable;
	if (xsID_onWritable == id) return o->onWritable;
	if (xsID_onError == id) return o->onError;
	return NULL;
}

void *fakeValidate(xsMachine *the, xsSlot *slot, const void *hooks)
{
	if (!slot->object || (slot->object->hooks != hooks))
		fakeThrow(the, "invalid host object");
	return slot->object->data;
}

void fakeCall(xsMachine *the, xsSlot *function, xsSlot *self, int argc, xsSlot *arg)
{
	if (function->function)
		function->function(the, self, argc, arg ? arg->integer : 0);
}

uint8_t *fakeSetBuffer(xsSlot *slot, const void *data, int length)
{
	memset(slot, 0, sizeof(*slot));
	slot->kind = kFakeBuffer;
	slot->integer = length;
	slot->buffer = calloc(1, length ? length : 1);
	if (data)
		memcpy(slot->buffer, data, length);
	return slot->buffer;
}

void fakeTrace(const char *text) { fakeTraces++; }

struct Message { modMessageDeliver callback; void *refcon; };
static struct Message queue[256];
static int queued;

int modMessagePostToMachine(xsMachine *the, uint8_t *message, uint16_t messageLength, modMessageDeliver callback, void *refcon)
{
	queue[queued].callback = callback;
	queue[queued].refcon = refcon;
	queued++;
	return 0;
}

int fakeStaleMessages;

/* The main loop's turn (xsHost.c modMessageService): the messages queued so far, in order. One whose
   record (its refcon, a c_malloc'd socket or listener) was freed meanwhile is counted, not delivered:
   on a chip its delivery reads and frees that memory again. */
void fakeService(xsMachine *the)
{
	int count = queued;
	struct Message now[256];
	memcpy(now, queue, sizeof(struct Message) * count);
	memmove(queue, queue + count, sizeof(struct Message) * (queued - count));
	queued -= count;
	for (int i = 0; i < count; i++) {
		if (now[i].refcon && !fakeLive(now[i].refcon))
			fakeStaleMessages++;
		else
			now[i].callback(the, now[i].refcon, NULL, 0);
	}
}

/* Runs a native function as XS would, catching what it throws: 0, or 1 with the->error set. */
int fakeNative(xsMachine *the, void (*native)(xsMachine *))
{
	jmp_buf abort;
	the->abort = &abort;
	the->error[0] = 0;
	if (setjmp(abort))
		return 1;
	native(the);
	return 0;
}
