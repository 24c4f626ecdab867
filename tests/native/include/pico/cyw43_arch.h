/* The fake of pico-sdk's cyw43_arch lwIP lock for the host harness: a recursive count (fake-lwip.c);
 * lwIP's interrupt, when one is due (fakeLwipDue), runs just before the lock is first taken. */
#ifndef FAKE_CYW43_ARCH_H
#define FAKE_CYW43_ARCH_H
extern int fakeLwipLock;
void fakeLockBegin(void);
#define cyw43_arch_lwip_begin() fakeLockBegin()
#define cyw43_arch_lwip_end() (fakeLwipLock--)
#endif
