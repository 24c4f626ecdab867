#ifndef FAKE_XSHOST_H
#define FAKE_XSHOST_H
#include "xsmc.h"
#endif
