/* pico-sdk's pico/rand.h as native/entropy/entropy-pico.c uses it (tests/native/entropy-scenarios.c
 * gives get_rand_64: a counter, so the bytes written can be checked one by one). */
#include <stdint.h>
uint64_t get_rand_64(void);
