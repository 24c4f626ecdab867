/* The fake XS machine's harness calls (fake-xs.c). */
#ifndef FAKE_XS_H
#define FAKE_XS_H
#include "xsmc.h"
extern int fakeTraces;
extern int fakeStaleMessages;	/* messages whose record was freed before the main loop delivered them */
void fakeService(xsMachine *the);
int fakeNative(xsMachine *the, void (*native)(xsMachine *));
#endif
