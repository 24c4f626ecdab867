/*
 * A fake of the XS C API (xsmc.h, xsHost.h), as much as the SDK's lwIP sockets
 * (modules/io/socket/lwip/tcp.c, udp.c) use, for compiling them on the host against the fake lwIP
 * (lwip/). A slot is a plain struct; a thrown error longjmps back to the harness (fake-xs.c); a
 * callback is a C function the harness gives; messages queue until the harness services them.
 */

#ifndef FAKE_XSMC_H
#define FAKE_XSMC_H

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

typedef struct xsMachineRecord xsMachine;
typedef struct FakeSlot xsSlot;
typedef struct FakeOptions FakeOptions;
typedef uint32_t xsUnsignedValue;
typedef void (*xsMarkRoot)(xsMachine *the, xsSlot *slot);
typedef void (*FakeFunction)(xsMachine *the, xsSlot *self, int argc, int value);

enum { kFakeUndefined = 0, kFakeInteger, kFakeHost, kFakeOptions, kFakeString, kFakeFunction, kFakeBuffer };
#define xsUndefinedType kFakeUndefined
#define xsReferenceType kFakeBuffer

/* A host object: every slot that refers to it sees its host data and hooks change. */
typedef struct {
	void *data;
	const void *hooks;
	int id;			/* the harness's name for the object */
} FakeObject;

struct FakeSlot {
	int kind;
	int integer;
	FakeObject *object;
	FakeOptions *options;
	FakeFunction function;
	uint8_t *buffer;
	char text[48];
};

struct FakeOptions {
	xsSlot *from;
	int port;		/* < 0: none */
	const char *address;
	xsSlot *onReadable, *onWritable, *onError;
};

struct xsMachineRecord {
	xsSlot thisSlot, result, args[4], vars[4];
	int argc;
	jmp_buf *abort;
	char error[64];
};

typedef struct {
	void (*destructor)(void *data);
	void (*marker)(xsMachine *the, void *it, xsMarkRoot markRoot);
	void *sizer;
} xsHostHooks;

extern int fakeRemembered;
extern int fakeDebugLoop;
uint8_t fxInNetworkDebugLoop(xsMachine *the);
void fakeThrow(xsMachine *the, const char *message) __attribute__((noreturn));
int fakeHas(xsMachine *the, xsSlot *object, int id);
void fakeGet(xsMachine *the, xsSlot *result, xsSlot *object, int id);
void *fakeValidate(xsMachine *the, xsSlot *slot, const void *hooks);
void fakeCall(xsMachine *the, xsSlot *function, xsSlot *self, int argc, xsSlot *arg);
uint8_t *fakeSetBuffer(xsSlot *slot, const void *data, int length);
void fakeTrace(const char *text);

#define xsThis (the->thisSlot)
#define xsResult (the->result)
#define xsArg(i) (the->args[i])
#define xsVar(i) (the->vars[i])
#define xsmcArgc (the->argc)
#define xsmcVars(n) ((void)0)
#define xsUnknownError(...) fakeThrow(the, __VA_ARGS__)
#define xsRangeError(...) fakeThrow(the, __VA_ARGS__)
#define xsmcHas(object, id) fakeHas(the, &(object), id)
#define xsmcGet(result, object, id) fakeGet(the, &(result), &(object), id)
#define xsmcSet(object, id, value) ((void)(id))
#define xsmcGetHostData(slot) ((slot).object->data)
#define xsmcSetHostData(slot, value) ((slot).object->data = (value))
#define xsmcGetHostDataValidate(slot, h) fakeValidate(the, &(slot), h)
#define xsSetHostHooks(slot, h) ((slot).object->hooks = (h))
#define xsmcSetHostDestructor(slot, d) ((slot).object->hooks = NULL)
void fakeForget(void);
/* Called once at the next xsForget (a socket's record let go, as doClose does): what lwIP does meanwhile. */
extern void (*fakeForgetHook)(void);
#define xsRemember(slot) (fakeRemembered++)
#define xsForget(slot) fakeForget()
#define xsmcSetInteger(slot, value) ((slot).kind = kFakeInteger, (slot).integer = (int)(value))
#define xsmcToInteger(slot) ((slot).integer)
#define xsmcToBoolean(slot) ((slot).integer != 0)
#define xsmcTypeOf(slot) ((slot).kind)
#define xsmcToString(slot) ((slot).text)
#define xsmcSetBoolean(slot, value) ((slot).kind = kFakeInteger, (slot).integer = (value) ? 1 : 0)
#define xsmcSetString(slot, value) ((slot).kind = kFakeString, strncpy((slot).text, (value), sizeof((slot).text) - 1))
#define xsmcToStringBuffer(slot, buffer, size) strncpy(buffer, (slot).text, size)
#define xsStringBuffer(text, size) ((xsSlot){ .kind = kFakeString })
#define xsmcGetBufferWritable(slot, data, length) (*(data) = (slot).buffer, *(length) = (slot).integer)
#define xsmcGetBufferReadable(slot, data, length) (*(data) = (slot).buffer, *(length) = (slot).integer)
#define xsmcSetArrayBuffer(slot, data, length) fakeSetBuffer(&(slot), data, length)
#define xsTrace(text) fakeTrace(text)
#define xsLog(...) ((void)0)
#define xsBeginHost(machine) { xsMachine *fakeHost = (xsMachine *)(machine); { xsMachine *the = fakeHost;
#define xsEndHost(machine) (void)the; } }
#define xsReference(slot) (*(slot))
#define xsCallFunction0(function, self) fakeCall(the, &(function), &(self), 0, NULL)
#define xsCallFunction1(function, self, arg) fakeCall(the, &(function), &(self), 1, &(arg))

#define ICACHE_RODATA_ATTR
void *fakeMalloc(size_t size);
void *fakeCalloc(size_t count, size_t size);
void fakeFree(void *data);
int fakeLive(const void *data);
#define c_malloc fakeMalloc
#define c_calloc fakeCalloc
#define c_free fakeFree
#define c_memmove memmove
#define c_memcpy memcpy
#define c_strlen strlen
#define c_strcpy strcpy

typedef void (*modMessageDeliver)(void *the, void *refcon, uint8_t *message, uint16_t messageLength);
int modMessagePostToMachine(xsMachine *the, uint8_t *message, uint16_t messageLength, modMessageDeliver callback, void *refcon);

#endif
