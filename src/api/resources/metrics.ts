// GET /metrics (docs/telemetry.md): the Prometheus text exposition format
// 0.0.4, one series per measurement of every module this server reaches. Which operations are
// measurements, their names, types and scales come from the route table (metric-family.ts); the
// stream opens only the families some module reads (readable-families.ts, found once per server).
// Like the device description, the text is made as it is sent: a MetricsStream the HTTP core polls
// whenever its transport has room gives about PIECE_TARGET characters at a time, and keeps between
// polls only its position (family, module, instance, path parameters). A family's samples stay
// together across modules, as the format requires. Reading is all it does: a GET per series through
// the HAL, never an action; a read that fails leaves its series out.

import { metricRow, type MetricRow } from './metric-family';
import { routeForms, type RouteParam } from '../route/routes';
import { serialText } from '../route/serial';
import { PIECE_TARGET } from './describe';
import { restartSamples } from './restart-metrics';
import type { EntityHal, ModuleHal } from '../../../hal/types';
import type { ResponseStream } from '../../http/request';

export const METRICS_PATH = '/metrics';
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Halls = { readonly [name: string]: EntityHal | undefined };

/** The GET form's path parameters of a metric row (a measurement has one GET form). */
function paramsOf(entity: string, op: string): readonly RouteParam[] {
  const forms = routeForms(entity, op)!;
  for (const r of forms) if (r.get !== '-') return r.params;
  return forms[0].params;
}

/** Highest value of a path parameter for this instance (a bound the module decides is read from it). */
function maxOf(p: RouteParam, hal: EntityHal, index: number): number {
  return p.max >= 0 ? p.max : hal.limit(index, p.name) - 1;
}

export class MetricsStream implements ResponseStream {
  private readonly devices: readonly ModuleHal[];
  /** The families some module reads (readable-families.ts): METRIC_ROUTES indexes as character codes. */
  private readonly families: string;
  /** The present family (a position in `families`). */
  private row = 0;
  /** The present family, derived from its route row when it opens. */
  private family: MetricRow | null = null;
  /** Has the present family been opened (HELP and TYPE sent, position set to its first series)? */
  private opened = false;
  private device = 0;
  private index = 0;
  /** The present series' path parameters, filled in place (an odometer over their ranges). */
  private readonly params: number[] = [];
  private paramDefs: readonly RouteParam[] = [];
  /** The present family's HAL on the present module (null: it cannot read it, or past the last module). */
  private current: EntityHal | null = null;
  /** `name{serial="0x…",index="` of the present family and module, made when the module changes. */
  private prefix = '';
  /** After the measurements: the next module whose restart counts are sent (restart-metrics.ts). */
  private restartModule = 0;

  constructor(devices: readonly ModuleHal[], families: string) {
    this.devices = devices;
    this.families = families;
  }

  poll(): string | null {
    let piece = '';
    while (this.row < this.families.length && piece.length < PIECE_TARGET) piece += this.step();
    while (this.row >= this.families.length && this.restartModule < this.devices.length && piece.length < PIECE_TARGET) {
      piece += restartSamples(this.devices, this.restartModule++);
    }
    return piece === '' ? null : piece;
  }

  close(): void {
    this.row = this.families.length;
    this.family = null;
    this.restartModule = this.devices.length;
  }

  /** The present family's HAL on the present module, or null when that module cannot read it. */
  private hal(): EntityHal | null {
    const r = this.family!;
    const hal = (this.devices[this.device].entities as Halls)[r[0]];
    return hal && hal.count > 0 && hal.supports(r[1]) ? hal : null;
  }

  /** One move: a family's head, one series ('' when its read fails), or '' while skipping. */
  private step(): string {
    if (!this.opened) return this.open();
    const hal = this.current;
    if (hal === null || this.index >= hal.count) {
      if (this.device < this.devices.length) return this.nextDevice();
      this.row++;
      this.opened = false;
      return '';
    }
    const index = this.index;
    if (this.paramDefs.length && !this.inRange(hal)) {
      this.index++; // an instance without such a parameter (a module-decided bound of 0)
      this.firstParams();
      return '';
    }
    const r = this.family!;
    let line = '';
    try {
      const v = hal.get(index, r[1], this.params);
      const n = typeof v === 'boolean' ? (v ? 1 : 0) : v;
      if (typeof n === 'number') {
        // No division by 1: under XS a quotient is always a double, which it writes with dtoa (soft float
        // on the chip); an integer times an integer stays an integer. x / 1 is x, so the text is the same.
        const value = r[6] === 1 ? (r[5] === 1 ? n : n * r[5]) : n * r[5] / r[6];
        line = this.prefix + index + (this.paramDefs.length ? '"' + this.paramLabels() + '} ' : '"} ') + value + '\n';
      }
    } catch {
      // a read the module refuses now (busy, not ready): no sample for this series in this scrape
    }
    this.advance(hal);
    return line;
  }

  /** HELP and TYPE of the present family, when some module can read it; else on to the next family. */
  private open(): string {
    const r = (this.family = metricRow(this.families.charCodeAt(this.row)));
    this.paramDefs = paramsOf(r[0], r[1]);
    for (this.device = 0; this.device < this.devices.length; this.device++) {
      if (this.hal()) {
        this.opened = true;
        this.device = -1;
        this.nextDevice();
        return '# HELP ' + r[2] + ' ' + r[4] + '\n# TYPE ' + r[2] + ' ' + r[3] + '\n';
      }
    }
    this.row++;
    return '';
  }

  /** On to the next module (its HAL for this family, its first instance and parameters), or past the last. */
  private nextDevice(): string {
    this.device++;
    this.index = 0;
    this.current = null;
    if (this.device < this.devices.length) {
      this.current = this.hal();
      this.prefix = this.family![2] + '{serial="' + serialText(this.devices[this.device].serialNumber) + '",index="';
      this.firstParams();
    }
    return '';
  }

  private firstParams(): void {
    const defs = this.paramDefs;
    this.params.length = defs.length;
    for (let k = 0; k < defs.length; k++) this.params[k] = defs[k].min;
  }

  /** The next parameters (last one fastest), or the next instance when they are all done. */
  private advance(hal: EntityHal): void {
    const defs = this.paramDefs;
    for (let k = defs.length - 1; k >= 0; k--) {
      if (this.params[k] < maxOf(defs[k], hal, this.index)) {
        this.params[k]++;
        return;
      }
      this.params[k] = defs[k].min;
    }
    this.index++;
  }

  private inRange(hal: EntityHal): boolean {
    const defs = this.paramDefs;
    for (let k = 0; k < defs.length; k++) if (this.params[k] > maxOf(defs[k], hal, this.index)) return false;
    return true;
  }

  /** `,pair="1"`… for the present parameters (label names from the metric row). */
  private paramLabels(): string {
    const names = this.family![7];
    let out = '';
    for (let k = 0; k < names.length; k++) out += ',' + names[k] + '="' + this.params[k] + '"';
    return out;
  }
}
Object.freeze(MetricsStream.prototype);
