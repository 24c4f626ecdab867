// The SDK's "timer" module for tools/bench-xs-anchor.mjs: the http Server never sets one; its client
// half does, and is not run here.
export default class Timer {
  static set() { throw new Error('no timers in the anchor bench'); }
  static clear() {}
}
