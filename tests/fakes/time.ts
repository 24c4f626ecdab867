// Fake of Moddable's `time` module: ticks are the fake network's virtual milliseconds.

import { net } from './net';

export default class Time {
  static get ticks(): number {
    return net.now;
  }
}
