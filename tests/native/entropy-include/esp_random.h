/* ESP-IDF v6.0's esp_random.h as native/entropy/entropy-esp32.c uses it (components/esp_hw_support). */
#include <stddef.h>
#include <stdint.h>
uint32_t esp_random(void);
void esp_fill_random(void *buf, size_t len);
