/* The fake of pico-sdk's hardware/sync.h interrupt mask for the host harness (malloc-scenarios.c):
   an interrupt raised while masked runs when the mask is lifted, as the NVIC holds it pending. */
#ifndef FAKE_HARDWARE_SYNC_H
#define FAKE_HARDWARE_SYNC_H
#include <stdint.h>
extern uint32_t fakePrimask;	/* 1: interrupts masked */
void fakeInterruptsRestored(void);
static inline uint32_t save_and_disable_interrupts(void) { uint32_t was = fakePrimask; fakePrimask = 1; return was; }
static inline void restore_interrupts(uint32_t status) { fakePrimask = status; if (!status) fakeInterruptsRestored(); }
#endif
