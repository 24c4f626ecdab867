// Fake of Moddable's `timer` module on the fake network's virtual clock (net.advance fires it).

import { net } from './net';

type Callback = (timer: Timer) => void;

export default class Timer {
  private constructor() { /* timers come from set/repeat */ }
  static set(callback: Callback, interval = 0, repeat?: number): Timer {
    const t = net.setTimer(callback as (t: unknown) => void, interval, false);
    if (repeat !== undefined) { t.repeat = true; t.interval = repeat; }
    return t as unknown as Timer;
  }
  static repeat(callback: Callback, interval: number): Timer {
    return net.setTimer(callback as (t: unknown) => void, interval, true) as unknown as Timer;
  }
  static schedule(timer: Timer, interval?: number, repeat?: number): void {
    net.scheduleTimer(timer, interval, repeat);
  }
  static clear(timer: Timer | undefined | null): void {
    if (timer) net.clearTimer(timer);
  }
}
