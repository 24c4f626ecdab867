/*
 * The desktop host's stand-in for the ESP32's embedded:update (update-lin.js). The image is appended
 * to $XDG_CONFIG_HOME/brainstem-nextota.bin (/tmp when unset; tools/mcsim-run.mjs gives each mcsim a
 * config directory of its own). It fails where the SDK's ESP32 module does (modules/io/update/esp32/
 * update-esp32.c, SDK 8.2.3): "begin failed" (:81-83), "already complete" (:97-98, :121-122), "write
 * failed" (:113-114; also for a first write that does not start with the image magic 0xE9, as
 * esp_ota_write answers, ESP-IDF v6.0 components/app_update/esp_ota_ops.c:330-335), "end failed"
 * (:124-127: the handle is gone after it, :125). complete() checks the image as esp_ota_end's
 * esp_image_verify does, without its SHA-256: the 0xE9 magic, 1 to 16 segments each inside what was
 * written, and the XOR checksum (seed 0xEF) in the last byte of the 16-byte block after them
 * (ESP-IDF components/bootloader_support/src/esp_image_format.c).
 */

#include "xsmc.h"
#include "xsHost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct {
	FILE *file;
	long written;
} UpdateRecord;

static void updatePath(char *path, size_t size)
{
	const char *dir = getenv("XDG_CONFIG_HOME");
	snprintf(path, size, "%s/brainstem-nextota.bin", (dir && *dir) ? dir : "/tmp");
}

void xs_brainstem_update_destructor(void *data)
{
	UpdateRecord *update = data;
	if (update && update->file) {
		fclose(update->file);	/* esp_ota_abort: the boot partition stays the running one */
		update->file = NULL;
	}
}

void xs_brainstem_update_open(xsMachine *the)
{
	char path[512];
	UpdateRecord update;

	updatePath(path, sizeof(path));
	update.file = fopen(path, "w+b");
	update.written = 0;
	if (!update.file)
		xsUnknownError("begin failed");
	xsResult = xsNewHostInstance(xsArg(0));
	xsmcSetHostChunk(xsResult, &update, sizeof(update));
}

void xs_brainstem_update_close(xsMachine *the)
{
	if (!xsmcGetHostChunk(xsThis))
		return;
	xs_brainstem_update_destructor(xsmcGetHostChunkValidate(xsThis, xs_brainstem_update_destructor));
	xsmcSetHostChunk(xsThis, NULL, 0);
	xsmcSetHostDestructor(xsThis, NULL);
}

void xs_brainstem_update_write(xsMachine *the)
{
	UpdateRecord *update = xsmcGetHostChunkValidate(xsThis, xs_brainstem_update_destructor);
	void *data;
	xsUnsignedValue size;

	if (!update->file)
		xsUnknownError("already complete");
	if (xsmcArgc > 1)
		xsUnknownError("offset not allowed");
	xsmcGetBufferReadable(xsArg(0), &data, &size);
	/* esp_ota_write checks the magic byte of the first bytes it is given (esp_ota_ops.c:330-335) */
	if (!update->written && size && (((uint8_t *)data)[0] != 0xE9))
		xsUnknownError("write failed");
	if (fwrite(data, 1, size, update->file) != size)
		xsUnknownError("write failed");
	update->written += size;
}

/* 1 when the image in `file` (`length` bytes written) is whole, as esp_image_verify judges it. */
static int imageIsWhole(FILE *file, long length)
{
	uint8_t header[24], segment[8], buffer[512], checksum = 0xEF, stored;
	long at = 24;

	if ((length < 24) || fseek(file, 0, SEEK_SET) || (fread(header, 1, 24, file) != 24))
		return 0;
	if ((header[0] != 0xE9) || (header[1] < 1) || (header[1] > 16))
		return 0;
	for (int s = 0; s < header[1]; s++) {
		if ((at + 8 > length) || (fread(segment, 1, 8, file) != 8))
			return 0;
		uint32_t size = segment[4] | (segment[5] << 8) | (segment[6] << 16) | ((uint32_t)segment[7] << 24);
		at += 8;
		if ((size & 3) || (size > (uint32_t)(length - at)))
			return 0;
		at += size;
		while (size) {
			size_t n = size < sizeof(buffer) ? size : sizeof(buffer);
			if (fread(buffer, 1, n, file) != n)
				return 0;
			for (size_t i = 0; i < n; i++)
				checksum ^= buffer[i];
			size -= n;
		}
	}
	at |= 15;	/* the checksum is the last byte of its 16-byte block */
	if ((at + 1 + (header[23] == 1 ? 32 : 0) > length) || fseek(file, at, SEEK_SET) || (fread(&stored, 1, 1, file) != 1))
		return 0;
	return stored == checksum;
}

void xs_brainstem_update_complete(xsMachine *the)
{
	UpdateRecord *update = xsmcGetHostChunkValidate(xsThis, xs_brainstem_update_destructor);
	FILE *file = update->file;

	if (!file)
		xsUnknownError("already complete");
	update->file = NULL;	/* esp_ota_end frees the handle whatever it answers */
	fflush(file);
	long length = ftell(file);
	int whole = imageIsWhole(file, length);
	fclose(file);
	if (!whole)
		xsUnknownError("end failed");
}
