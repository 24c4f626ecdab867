/* The fake of pico-sdk's cyw43_arch lwIP lock for the host harness: a recursive count (fake-lwip.c). */
#ifndef FAKE_CYW43_ARCH_H
#define FAKE_CYW43_ARCH_H
extern int fakeLwipLock;
#define cyw43_arch_lwip_begin() (fakeLwipLock++)
#define cyw43_arch_lwip_end() (fakeLwipLock--)
#endif
