/*
 * Random bytes on the Pico W (native/entropy/entropy.js): pico-sdk's get_rand_64
 * (src/rp2_common/pico_rand/rand.c), seeded from the ring oscillator's RANDOMBIT, the board's flash
 * unique ID and the time, then mixed on every call. Math.random is rand(), never seeded on this
 * platform (xs/platforms/pico/xsHost.h:337): it repeats from one boot to the next.
 */

#include "xsmc.h"
#include "pico/rand.h"

void xs_entropy_fill(xsMachine *the)
{
	void *data;
	xsUnsignedValue length;
	xsmcGetBufferWritable(xsArg(0), &data, &length);
	uint8_t *out = data;
	while (length) {
		uint64_t r = get_rand_64();
		for (int i = 0; i < 8 && length; i++, length--, r >>= 8)
			*out++ = (uint8_t)r;
	}
}
