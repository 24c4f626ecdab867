/* The Pico W's memcpy (native/mem-copy/mem-copy-pico.c, built here as pico_memcpy) against a byte
 * loop: every length 0..300, every alignment 0..7 of source and destination, the bytes around the
 * destination untouched, the destination returned. Prints {"cases":N,"wrong":M}. */
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

void *pico_memcpy(void *restrict dst, const void *restrict src, size_t n);

int main(void)
{
	static uint8_t src[400] __attribute__((aligned(8)));
	static uint8_t dst[400] __attribute__((aligned(8)));
	static uint8_t want[400];
	unsigned cases = 0, wrong = 0;
	for (unsigned i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7 + 3);
	for (unsigned so = 0; so < 8; so++)
		for (unsigned dof = 0; dof < 8; dof++)
			for (unsigned n = 0; n <= 300; n++) {
				for (unsigned i = 0; i < sizeof dst; i++) dst[i] = want[i] = (uint8_t)(0xA5 ^ i);
				for (unsigned i = 0; i < n; i++) want[dof + 40 + i] = src[so + i];
				void *r = pico_memcpy(dst + dof + 40, src + so, n);
				cases++;
				int bad = r != dst + dof + 40;
				for (unsigned i = 0; i < sizeof dst; i++) bad |= dst[i] != want[i];
				if (bad) {
					if (wrong < 5) fprintf(stderr, "wrong: source +%u, destination +%u, %u bytes\n", so, dof, n);
					wrong++;
				}
			}
	printf("{\"cases\":%u,\"wrong\":%u}\n", cases, wrong);
	return 0;
}
