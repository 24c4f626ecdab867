/* native/entropy/entropy-<ENTROPY_PLATFORM>.c on the host (tests/native-entropy.test.ts): xs_entropy_fill
 * into buffers of a few lengths, with the platform's calls faked where they are the chip's. Prints one
 * line a fill: `fill <length> <hex of the buffer and the byte after it>`, and for the ESP32 `noise on`
 * when the noise source was on as the bytes were read and `noise off` once the fill returned. */
#include <stdio.h>
#include "xsmc.h"

#if defined(ENTROPY_PICO)
#include "pico/rand.h"
static uint64_t counter = 0x0807060504030201ull;
uint64_t get_rand_64(void) { uint64_t r = counter; counter += 0x0808080808080808ull; return r; }
#include "../../native/entropy/entropy-pico.c"
#elif defined(ENTROPY_ESP32)
#include "esp_random.h"
#include "bootloader_random.h"
static int noise;
void bootloader_random_enable(void) { noise = 1; }
void bootloader_random_disable(void) { noise = 0; }
uint32_t esp_random(void) { return 0; }
void esp_fill_random(void *buf, size_t len)
{
	printf("noise %s\n", noise ? "on" : "off");
	for (size_t i = 0; i < len; i++) ((uint8_t *)buf)[i] = (uint8_t)(0xa0 + i);
}
#include "../../native/entropy/entropy-esp32.c"
#else
#include "../../native/entropy/entropy-lin.c"
#endif

static void fill(int length)
{
	static struct xsMachineRecord machine;
	xsMachine *the = &machine;
	uint8_t *bytes = calloc(1, (size_t)length + 1);
	bytes[length] = 0xee; /* must stay as it is */
	the->args[0].kind = kFakeBuffer;
	the->args[0].buffer = bytes;
	the->args[0].integer = length;
	the->argc = 1;
	xs_entropy_fill(the);
	printf("fill %d ", length);
	for (int i = 0; i <= length; i++) printf("%02x", bytes[i]);
	printf("\n");
#if defined(ENTROPY_ESP32)
	printf("noise %s\n", noise ? "on" : "off");
#endif
	free(bytes);
}

int main(void)
{
	fill(16);
	fill(13);
	fill(1);
	return 0;
}
