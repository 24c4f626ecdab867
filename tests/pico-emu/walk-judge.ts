// What the walk (walk-client.ts) may meet that is right: a clock field that moved on between a PUT and
// its read-back, and a write the module's present state refuses with the reason (docs/api.md: 409 names
// what to change first). Shared by the emulated Pico W's and ESP32's walks.
import type { Step } from './walk-client';

/** Read back as put: the clock's fields move on by themselves between the PUT and the GET. */
export function readsBack(step: Step): boolean {
  if (step.readBack === step.changed) return true;
  if (!/^clock\//.test(step.route)) return false;
  const drift = Number(step.readBack) - Number(step.changed);
  return drift >= 0 && drift <= (step.route.endsWith('/second') ? 10 : 1);
}

/** What the module's state explains, each with its reason (docs/api.md: 409 names what to change first). */
export function explained(step: Step, steps: Step[]): boolean {
  const valueOf = (route: string): unknown => steps.find((s) => s.route === route)?.value;
  const digital = /^digital\/(\d+)\/(state|value|stateall)$/.exec(step.route);
  if (digital && digital[2] !== 'stateall') {
    // a pin's state and value refuse a write while it is not an output (409 aErrConfiguration)
    return valueOf(`digital/${digital[1]}/configuration`) !== 1 && step.back === 409 && step.put === 409;
  }
  if (digital) {
    // stateall sets the outputs among the eight pins; the others read their inputs
    const outputs = [...Array(8).keys()].reduce((m, i) => (valueOf(`digital/${i}/configuration`) === 1 ? m | (1 << i) : m), 0);
    return step.back === 200 && step.put === 200 && (Number(step.readBack) & outputs) === (Number(step.changed) & outputs);
  }
  const signal = /^signal\/(\d+)\/t3time$/.exec(step.route);
  if (signal) {
    // a period shorter than the high time (t2time) is refused (409 aErrMode)
    return step.put === 409 && Number(step.changed) < Number(valueOf(`signal/${signal[1]}/t2time`)) && step.readBack === step.value;
  }
  return false;
}
