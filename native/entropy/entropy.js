// Random bytes from the chip's own entropy source, as a host function: the RP2040's ring oscillator
// through pico-sdk's pico_rand (entropy-pico.c), the ESP32's RNG with its SAR ADC noise source on
// (entropy-esp32.c), the desktop host's getrandom (entropy-lin.c). The secret that seals HTTP Digest
// nonces is read from it once at start. No state: preloaded into flash.

/** Fill `buffer` (an ArrayBuffer or a typed array) with random bytes. */
export default function fillRandom(buffer) @ "xs_entropy_fill";
