/* What the fake lwIP counts and the client events it plays (fake-lwip.c). */
#ifndef FAKE_LWIP_H
#define FAKE_LWIP_H
#include "lwip/tcp.h"

struct FakeCounts {
	int doubleFrees;	/* a pcb freed when it was free already */
	int callsOnFreed;	/* an lwIP call given a pcb that is free */
	int sharedPcbs;		/* the pool handed out a pcb still in use: two connections on one pcb */
	int staleCallbacks;	/* an lwIP callback given an argument the application has freed */
	int unlocked;		/* an lwIP call from the main loop outside the lock (fakeCheckLock) */
	const char *unlockedCall;
	int nullAccepts;	/* accept callbacks given a NULL pcb */
};
extern struct FakeCounts fakeCounts;
extern int fakeLwipLock;	/* pico/cyw43_arch.h's lock, held while > 0 */
extern int fakeInLwip;		/* lwIP's own context (its input, its thread) */
extern int fakeCheckLock;	/* count lwIP calls made outside fakeLwipLock and fakeInLwip */

void fakePoolSize(int pcbs);
int fakePcbsInUse(void);
struct tcp_pcb *fakeConnect(void);
void fakeData(struct tcp_pcb *pcb, int bytes);
void fakeFin(struct tcp_pcb *pcb);
void fakeFastTimer(void);
extern int fakeHeapRefusals;	/* tcp_write answers ERR_MEM this many times (the heap has no room) */
void fakeRst(struct tcp_pcb *pcb);
void fakeGiveUp(struct tcp_pcb *pcb);
/* lwIP's work that is due (its interrupt on the Pico W, a message ahead in its task's queue on the
   ESP32): run once, just before the main loop next takes the lock or hands lwIP a call. */
extern void (*fakeLwipDue)(void);
void fakeRunDue(void);
void fakeUdpPacket(struct udp_pcb *pcb, int bytes);
extern struct udp_pcb *fakeLastUdp;
#endif
