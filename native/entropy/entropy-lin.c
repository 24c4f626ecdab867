/*
 * Random bytes on the desktop host (native/entropy/entropy.js under mcsim): the kernel's getrandom.
 */

#include "xsmc.h"
#include <sys/random.h>

void xs_entropy_fill(xsMachine *the)
{
	void *data;
	xsUnsignedValue length;
	xsmcGetBufferWritable(xsArg(0), &data, &length);
	uint8_t *out = data;
	while (length) {
		ssize_t n = getrandom(out, length, 0);
		if (n <= 0)
			xsUnknownError("no entropy");
		out += n;
		length -= (xsUnsignedValue)n;
	}
}
