/*
 * One load for each byte XS reads of a string on the Pico.
 *
 * The Pico port of XS reads string bytes through c_read8, which it defines as espRead8
 * (Moddable SDK xs/platforms/pico/xsHost.h:378-383, `#if 1`): the ESP8266's reader, which loads the
 * aligned word and shifts the byte out (xsHost.c:91-95), because that chip's flash takes only 32-bit
 * reads. It lies in RAM (ICACHE_RAM_ATTR, xsHost.h:38) while XS runs from flash, so every call goes
 * through a linker veneer as well: on the emulated Pico W a GET of one value spent 145,000 cycles in
 * espRead8 and its veneer, a tenth of its cycles (make pico-emu-figures, PICO_EMU_CALLERS=espRead8),
 * for string lengths, offsets and compares. The RP2040 reads a byte of its flash (XIP) or RAM with
 * one load, so the link wraps espRead8 (manifest "build" LDFLAGS, -Wl,--wrap) with this one, in
 * flash beside its callers: no veneer, no shift.
 */

#include <stdint.h>

uint8_t __wrap_espRead8(const void *addr)
{
	return *(const uint8_t *)addr;
}
