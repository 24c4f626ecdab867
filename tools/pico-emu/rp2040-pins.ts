// Wires a Cyw43 model to an rp2040js RP2040 the way the Pico W board does (pico-sdk
// src/boards/include/boards/pico_w.h): WL_REG_ON on GPIO 23, the shared DATA/IRQ line on GPIO 24,
// CS on GPIO 25, CLK on GPIO 29. The firmware's PIO program and DMA drive the pins; the model
// listens to them and drives GPIO 24's input. Typed by shape only, so that this compiles without
// rp2040js installed (rp2040js 1.4.1: GPIOPin.addListener, setInputValue, outputValue).
import type { Cyw43 } from './cyw43';

export interface GpioPinLike {
  addListener(cb: (state: number, oldState: number) => void): () => void;
  setInputValue(value: boolean): void;
  readonly outputValue: boolean;
}

export interface Rp2040Like {
  gpio: GpioPinLike[];
}

export interface Cyw43Pins {
  wlOn: number;
  data: number;
  cs: number;
  clk: number;
}

export const PICO_W_PINS: Cyw43Pins = { wlOn: 23, data: 24, cs: 25, clk: 29 };

// rp2040js GPIOPinState: Low 0, High 1, Input 2, InputPullUp 3, InputPullDown 4, InputBusKeeper 5
const LOW = 0, HIGH = 1, INPUT_PULL_UP = 3;

/** Attaches the model; returns a function that detaches it. */
export function attachCyw43(mcu: Rp2040Like, chip: Cyw43, pins: Cyw43Pins = PICO_W_PINS): () => void {
  const data = mcu.gpio[pins.data];
  let selected = false;
  const idleLevel = (): void => data.setInputValue(chip.powered && chip.bus.irqLevel());
  chip.onInterrupt = () => { if (!selected) idleLevel(); };
  const off = [
    mcu.gpio[pins.wlOn].addListener((state) => {
      chip.power(state === HIGH || state === INPUT_PULL_UP);
      if (!selected) idleLevel();
    }),
    mcu.gpio[pins.cs].addListener((state) => {
      const low = state === LOW;
      if (low === selected) return;
      selected = low;
      if (!chip.powered) return;
      if (low) {
        chip.wire.select();
        data.setInputValue(false);
      } else {
        chip.wire.deselect();
        idleLevel();
      }
    }),
    mcu.gpio[pins.clk].addListener((state, old) => {
      if (!selected || !chip.powered || state !== HIGH || old === HIGH) return;
      const level = chip.wire.clockRise(data.outputValue);
      if (level !== undefined) data.setInputValue(level);
    }),
  ];
  return () => {
    chip.onInterrupt = undefined;
    off.forEach((f) => f());
  };
}
