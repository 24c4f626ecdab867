#ifndef FAKE_BUILTINCOMMON_H
#define FAKE_BUILTINCOMMON_H
/* The fake of modules/io/common/builtinCommon.h for the host harness (xsmc.h). */
#include "xsmc.h"
enum { kIOFormatNumber = 1, kIOFormatBuffer = 2, kIOFormatString = 3, kIOFormatSocketTCP = 4 };
xsSlot *fakeCallback(xsMachine *the, int id);
#define CHECK_NETWORK_SAFE() ((void)0)
#define builtinInitIO() ((void)0)
#define builtinInitializeTarget(the) ((void)0)
#define builtinInitializeFormat(the, format) (format)
#define builtinGetFormat(the, format) ((void)(format))
#define builtinSetFormat(the) kIOFormatBuffer
#define builtinGetCallback(the, id) fakeCallback(the, id)
#define builtinGetSignedInteger(the, slot) ((slot)->integer)
#define builtinCriticalSectionBegin() ((void)0)
#define builtinCriticalSectionEnd() ((void)0)
#endif
