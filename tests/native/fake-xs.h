/* The fake XS machine's harness calls (fake-xs.c). */
#ifndef FAKE_XS_H
#define FAKE_XS_H
#include "xsmc.h"
extern int fakeTraces;
void fakeService(xsMachine *the);
int fakeNative(xsMachine *the, void (*native)(xsMachine *));
#endif
