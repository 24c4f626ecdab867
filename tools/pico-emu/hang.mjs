// "The main loop stops", as a JavaScript loop that never returns or a driver spinning with interrupts
// off would stop it: the core is pointed at a `b .` (a branch to itself) with PRIMASK set, so no
// interrupt, no timer callback and no lwIP runs any more; only the watchdog goes on counting. The loop
// is written just below the stack pointer, memory nothing else uses once interrupts are masked.
const B_SELF = 0xe7fe; // Thumb: b .

export function hangCore(mcu) {
  const { core } = mcu;
  const at = (core.SP - 16) & ~3;
  mcu.writeUint16(at, B_SELF);
  core.PM = true; // PRIMASK: interrupts masked
  core.waiting = false; // out of a WFI/WFE, if it was in one
  core.PC = at;
}
