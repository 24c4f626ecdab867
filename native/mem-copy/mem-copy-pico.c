/*
 * memcpy for the Pico W image: the copy of an XS slot (16 bytes, word-aligned) is the common case,
 * and takes about 20 cycles where newlib's took about 60.
 *
 * XS copies its 16-byte slots by structure assignment (xs/sources/xsRun.c, xsAll.h mxPushSlot and
 * the others), and a slot holds a double, so GCC gives it 8-byte alignment; on Thumb-1 GCC inlines a
 * block copy only when its alignment is exactly 4 (arm.md "cpymemqi": `INTVAL (operands[3]) != 4`
 * fails), so each slot copy became a call of memcpy. Moddable's Pico link takes newlib's portable
 * memcpy (memcpy-stub.c) into RAM (build/devices/pico/config/xsproj_rp2040.ld:71 keeps libc's mem*
 * out of flash) and calls it from flash through a veneer: on the emulated Pico W a GET of one value
 * made about 2,000 such copies (and 300 of other sizes), 125,000 cycles (make pico-emu-figures, PICO_EMU_CALLERS=memcpy:
 * 108,626 of memcpy's cycles called by fxRunID, 16,371 in its veneer). Moddable's Pico make file
 * leaves out pico-sdk's own wrap of memcpy (LDFLAGS_RP2040 is never used).
 *
 * This file's memcpy is found first by the link, so newlib's is not taken. It goes to RAM where
 * newlib's was (.time_critical: nothing of it runs from flash, as before, and a function that runs
 * while the flash is written may call it). A slot is copied with four loads and four stores, 8 bytes
 * (about 150 copies of a GET) with two; any other copy
 * moves four words a turn when source and destination are both word-aligned, else byte by byte, as
 * newlib's did. On the emulated Pico W the GET's copies took 50,147 cycles and 40,242 for the other
 * sizes (copy_any), where newlib's took 142,926. tests/native-mem-copy.test.ts checks it against a
 * byte loop for every length to 300 and every alignment of either side.
 */

#include <stddef.h>
#include <stdint.h>

typedef uint32_t __attribute__((may_alias)) word;

#ifndef MEM_COPY_SECTION
#define MEM_COPY_SECTION __attribute__((section(".time_critical.memcpy")))
#endif

/* Any copy. No loop of it is to be made a call of memcpy, which would recurse. */
MEM_COPY_SECTION __attribute__((noinline, optimize("no-tree-loop-distribute-patterns")))
static void *copy_any(void *restrict dst, const void *restrict src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	if (!(((uintptr_t)d | (uintptr_t)s) & 3)) {
		word *dw = (word *)d;
		const word *sw = (const word *)s;
		for (; n >= 16; n -= 16, dw += 4, sw += 4) {
			dw[0] = sw[0];
			dw[1] = sw[1];
			dw[2] = sw[2];
			dw[3] = sw[3];
		}
		for (; n >= 4; n -= 4)
			*dw++ = *sw++;
		d = (uint8_t *)dw;
		s = (const uint8_t *)sw;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

/* A slot: four words; half a slot (a double, a slot's value): two words; any other copy goes on to copy_any. */
MEM_COPY_SECTION
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	if (!(((uintptr_t)dst | (uintptr_t)src) & 3)) {
		word *d = dst;
		const word *s = src;
		if (n == 16) {
			d[0] = s[0];
			d[1] = s[1];
			d[2] = s[2];
			d[3] = s[3];
			return dst;
		}
		if (n == 8) {
			d[0] = s[0];
			d[1] = s[1];
			return dst;
		}
	}
	return copy_any(dst, src, n);
}
