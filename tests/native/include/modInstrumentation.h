#ifndef FAKE_MODINSTRUMENTATION_H
#define FAKE_MODINSTRUMENTATION_H
#define modInstrumentationAdjust(what, by) ((void)0)
#endif
