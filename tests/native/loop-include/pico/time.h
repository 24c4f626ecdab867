/* The fake of pico-sdk's pico/time.h for the main loop harness (loop-scenarios.c): microseconds of a
   fake clock that only the harness moves, and a WFE that sleeps until the timeout or an interrupt. */
#ifndef FAKE_PICO_TIME_H
#define FAKE_PICO_TIME_H
#include <stdint.h>
#include <stdbool.h>
typedef uint64_t absolute_time_t;
absolute_time_t make_timeout_time_ms(uint32_t ms);
bool best_effort_wfe_or_timeout(absolute_time_t timeout);
#endif
