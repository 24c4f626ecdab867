/* The fake of pico-sdk's cyw43_arch lwIP lock for the host harness: a recursive count (fake-lwip.c);
 * lwIP's interrupt, when one is due (fakeLwipDue), runs just before the lock is first taken: the
 * lock masks the low-priority interrupt lwIP's input runs in (pico_async_context/
 * async_context_threadsafe_background.c:289-303), so what was pending runs up to that moment. */
#ifndef FAKE_CYW43_ARCH_H
#define FAKE_CYW43_ARCH_H
extern int fakeLwipLock;
void fakeLockBegin(void);
#define cyw43_arch_lwip_begin() fakeLockBegin()
#define cyw43_arch_lwip_end() (fakeLwipLock--)
#endif
