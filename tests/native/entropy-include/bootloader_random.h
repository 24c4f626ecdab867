/* ESP-IDF v6.0's bootloader_random.h (components/bootloader_support/include): the SAR ADC noise source
 * switched on and off. */
void bootloader_random_enable(void);
void bootloader_random_disable(void);
