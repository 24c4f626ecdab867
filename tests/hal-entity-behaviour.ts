// What both HALs (hal/sim with the everything profile, hal/device on the full test board) must answer
// alike on every entity both have, for the rules that do not depend on hardware: the same refusal, word
// for word, from the rules in hal/kit (value limits, calendar, store lock, host name, signal times). Run by
// tests/hal-entity-conformance.test.ts, which also compares what each publishes (supports, count,
// limits) and fails on any difference not listed in HARDWARE_DIFFERENCES with its reason.

import { deepFreeze } from '../util/freeze';

/** One call: a PUT (`set`, with `value`, or `text` sent as its UTF-8 bytes) or a GET (`read`). */
export interface EntityStep {
  readonly set?: string;
  readonly read?: string;
  readonly params?: readonly number[];
  readonly value?: number | boolean;
  readonly text?: string;
  /** A PUT's expected refusal: the error's name and its message, the same on both HALs. */
  readonly fails?: { readonly error: string; readonly message: string };
  /** A read's expected value (`text`: the bytes read as UTF-8). */
  readonly expect?: number | boolean | string;
}

export interface EntityCase {
  readonly name: string;
  readonly entity: string;
  readonly index: number;
  readonly steps: readonly EntityStep[];
}

/** The entities both HALs have (the sim's everything profile, the device's FULL_BOARD). */
export const SHARED_ENTITIES = deepFreeze(['system', 'clock', 'ethernet', 'digital', 'analog', 'servo', 'signal', 'uart', 'store']);

const LOCKED = { error: 'aErrPermission', message: 'store 0 slot 1 is locked: set store/0/lock/1 to false first' };
const HOSTNAME = { error: 'aErrParam', message: 'hostname: a host name is 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen' };

export const ENTITY_BEHAVIOUR: readonly EntityCase[] = deepFreeze([
  {
    name: 'store: a locked slot refuses slotenable and slotdisable with one 403, and keeps its state',
    entity: 'store', index: 0,
    steps: [
      { set: 'slotenable', value: 1 },
      { set: 'lock', params: [1], value: true },
      { set: 'slotdisable', value: 1, fails: LOCKED },
      { set: 'slotenable', value: 1, fails: LOCKED },
      { read: 'slotstate', params: [1], expect: true },
      { set: 'lock', params: [1], value: false },
      { set: 'slotdisable', value: 1 },
      { read: 'slotstate', params: [1], expect: false },
    ],
  },
  {
    name: 'clock: a day the month lacks is one 409 saying what to change; moving the month takes its last day',
    entity: 'clock', index: 0,
    steps: [
      { set: 'year', value: 2023 },
      { set: 'month', value: 1 },
      { set: 'day', value: 31 },
      { set: 'month', value: 2 },
      { read: 'day', expect: 28 },
      { set: 'day', value: 29, fails: { error: 'aErrMode', message: 'day 29 does not exist in 2023-02 (1..28); set month (and year) first' } },
      { set: 'year', value: 2024 },
      { set: 'day', value: 29 },
      { read: 'day', expect: 29 },
    ],
  },
  {
    name: 'ethernet: the host name rule is one 400 on both, and a good name reads back',
    entity: 'ethernet', index: 0,
    steps: [
      { set: 'hostname', text: '-bench', fails: HOSTNAME },
      { set: 'hostname', text: 'a_b', fails: HOSTNAME },
      { set: 'hostname', text: 'x'.repeat(64), fails: HOSTNAME },
      { set: 'hostname', text: 'bench-7' },
      { read: 'hostname', expect: 'bench-7' },
    ],
  },
  {
    name: 'signal: the active time never exceeds the period, one 409 on both saying which to change first',
    entity: 'signal', index: 0,
    steps: [
      { set: 't3time', value: 1_000_000 },
      { set: 't2time', value: 250_000 },
      { set: 't2time', value: 2_000_000, fails: { error: 'aErrMode', message: 'signal 0 t2time 2000000 is above t3time 1000000: raise signal/0/t3time first' } },
      { set: 't3time', value: 200_000, fails: { error: 'aErrMode', message: 'signal 0 t3time 200000 is below t2time 250000: lower signal/0/t2time first' } },
      { read: 't3time', expect: 1_000_000 },
      { read: 't2time', expect: 250_000 },
    ],
  },
  {
    name: 'system: a value outside the published set is one 400 aErrRange on both',
    entity: 'system', index: 0,
    steps: [
      { set: 'modulesoftwareoffset', value: 3, fails: { error: 'aErrRange', message: 'modulesoftwareoffset: 3 is not one of 0, 2, 4, 6, 8, 10, ... 254' } },
      { read: 'modulesoftwareoffset', expect: 0 },
    ],
  },
]);

/**
 * Where the two HALs publish differently, and the hardware reason. Key: `entity count`,
 * `entity/op supports` or `entity/op limits`. The test fails on a difference not listed here and on a
 * listed one that is gone.
 */
export const HARDWARE_DIFFERENCES: Readonly<Record<string, string>> = deepFreeze({
  'ethernet/enabled limits': 'the device serves over its only network interface: it cannot be disabled (true only)',
  'ethernet/networkconfiguration limits': 'the firmware joins its network by DHCP only (Moddable setup/network): DHCP (2) only',
  'ethernet/ipv4netmask supports': 'the platform (`net`) reports no netmask: 501 on the device',
  'ethernet/ipv4gateway supports': 'the platform (`net`) reports no gateway: 501 on the device',
  'uart count': 'the board wires one UART (port 2); the simulated module has two',
  'uart/baudrate limits': 'the board UART (ECMA-419 Serial on the ESP32) takes 300..5 000 000 baud; the simulated UART 0..4 000 000',
  'uart/protocol limits': 'the board UART passes bytes through (protocol 0 only); the simulated one offers the protocols it models',
  'uart/linkchannel limits': 'a board UART reads its own port as linkchannel and cannot be linked (read only)',
  'uart/stopbits limits': 'ECMA-419 Serial takes a baud rate and pins only: the board UART is 8N1, no flow control',
  'uart/parity limits': 'ECMA-419 Serial takes a baud rate and pins only: the board UART is 8N1, no flow control',
  'uart/databits limits': 'ECMA-419 Serial takes a baud rate and pins only: the board UART is 8N1, no flow control',
  'uart/flowcontrol limits': 'ECMA-419 Serial takes a baud rate and pins only: the board UART is 8N1, no flow control',
  'analog count': 'the board has two ADC pins (4, 5); the simulated module four',
  'analog/value limits': 'the ESP32 has no DAC on most variants: board ADC pins read only; simulated channels can be outputs',
  'analog/voltage limits': 'the ESP32 has no DAC on most variants: board ADC pins read only; simulated channels can be outputs',
  'analog/range limits': 'the board ADC has one range',
  'analog/configuration limits': 'the board ADC pins are inputs only (configuration 0)',
  'analog/enable supports': 'an ADC pin has no enable',
  'analog/bulkcapturesamplerate supports': 'no bulk capture on the board (no RAM store to capture into)',
  'analog/bulkcapturenumberofsamples supports': 'no bulk capture on the board (no RAM store to capture into)',
  'analog/bulkcapture supports': 'no bulk capture on the board (no RAM store to capture into)',
  'analog/bulkcapturestate supports': 'no bulk capture on the board (no RAM store to capture into)',
  'system/bootslot limits': 'a boot slot is a slot of the module\'s store: two on the board, twelve simulated',
  'system/logevents supports': 'the device keeps no event log',
  'system/temperature supports': 'the board has no temperature sensor',
  'system/mintemperature supports': 'the board has no temperature sensor',
  'system/maxtemperature supports': 'the board has no temperature sensor',
  'system/inputvoltage supports': 'the board does not measure its supply',
  'system/inputcurrent supports': 'the board does not measure its supply',
  'system/routetome supports': 'the device is not a router of a module link',
  'system/powerlimit supports': 'the board has no power budget to manage',
  'system/powerlimitmax supports': 'the board has no power budget to manage',
  'system/powerlimitstate supports': 'the board has no power budget to manage',
  'system/unregulatedvoltage supports': 'the board does not measure its supply',
  'system/unregulatedcurrent supports': 'the board does not measure its supply',
  'system/inputpowersource supports': 'the board has one power input',
  'system/inputpowerbehavior supports': 'the board has one power input',
  'system/inputpowerbehaviorconfig supports': 'the board has one power input',
  'system/protocolfeatures supports': 'the device speaks HTTP only, no module link protocol',
  'digital count': 'the board wires four GPIOs; the simulated module fifteen',
  'digital/configuration limits': 'a board GPIO is input, output or pull-up input (0, 1, 4); the simulated pins take every mode',
  'digital/stateall limits': 'stateall is a bit per pin: four pins on the board (0..15)',
  'digital/linkchannel supports': 'board GPIOs are not linked to another channel',
  'signal count': 'the board wires two LEDC outputs; the simulated module five',
  'signal/t3time limits': 'the ESP32 LEDC makes periods of 3.2 µs..500 ms; the simulated signal any 32-bit period',
  'signal/t2time limits': 'the LEDC high time is bounded by its longest period (500 ms)',
  'servo count': 'the board wires one servo pin; the simulated module eight',
  'store count': 'the board keeps one store (NVS); the simulated module an internal and a RAM store',
  'store/slotenable limits': 'the board store has two slots; the simulated internal store twelve',
  'store/slotdisable limits': 'the board store has two slots; the simulated internal store twelve',
});
