/*
 * Random bytes on the ESP32 (native/entropy/entropy.js). Its RNG gives true random numbers only while
 * a noise source feeds it: the RF subsystem (Wi-Fi, not yet started when this runs, and never on a
 * wired module) or the SAR ADC, which the second-stage bootloader switches off before the app starts
 * (ESP-IDF, "Random Number Generation"; components/bootloader_support/include/bootloader_random.h).
 * So the SAR ADC source is on while the bytes are read and off again after, before anything opens the
 * ADC (the analog HAL opens it at its first read).
 */

#include "xsmc.h"
#include "esp_random.h"
#include "bootloader_random.h"

void xs_entropy_fill(xsMachine *the)
{
	void *data;
	xsUnsignedValue length;
	xsmcGetBufferWritable(xsArg(0), &data, &length);
	bootloader_random_enable();
	esp_fill_random(data, length);
	bootloader_random_disable();
}
