// Every module the host server knows, by origin: those named on the command line and those found by
// DNS-SD. Answers which link serves a serial (none, one, or a duplicate), the device list of
// GET /api/v1/device and the Prometheus HTTP service-discovery list of GET /api/v1/targets.

import { ModuleLink, PROBE_INTERVAL_MS, type ModuleEntry } from './link';
import { serialText } from '../src/api/route/serial';

export interface Found {
  link: ModuleLink;
  entry: ModuleEntry;
}

export class Registry {
  private readonly links = new Map<string, ModuleLink>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly moduleConnections: number, private readonly queue: number,
    private readonly tokens: ReadonlyMap<number | '*', string> = new Map()) {
    this.timer = setInterval(() => this.probeAll(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  /** The link to `origin` (http://addr:port), made and probed at once when new. */
  add(origin: string, hint?: ModuleEntry): ModuleLink {
    let link = this.links.get(origin);
    if (!link) {
      link = new ModuleLink(origin, this.moduleConnections, this.queue, this.tokens);
      this.links.set(origin, link);
      void link.probe();
    }
    if (hint) link.hint = hint;
    return link;
  }

  all(): ModuleLink[] {
    return [...this.links.values()];
  }

  /** Every listed module: what each link last answered, or what its announcement claimed. */
  private rows(): Found[] {
    const out: Found[] = [];
    for (const link of this.links.values()) {
      const entries = link.entries.length ? link.entries : link.hint ? [link.hint] : [];
      for (const entry of entries) out.push({ link, entry });
    }
    return out;
  }

  /** Every module online, as listed. */
  online(): Found[] {
    return this.rows().filter((r) => r.link.online);
  }

  /** The modules answering for `serial`, online ones first. */
  find(serial: number): Found[] {
    return this.rows().filter((r) => r.entry.serial === serial).sort((a, b) => Number(b.link.online) - Number(a.link.online));
  }

  /** The only module, when exactly one is known (a path may then leave the serial out). */
  only(): Found | null {
    const rows = this.rows();
    return rows.length === 1 ? rows[0] : null;
  }

  count(): number {
    return this.rows().length;
  }

  /** The `response` of GET /api/v1/device. */
  listing(): string {
    return JSON.stringify(this.rows().map(({ link, entry }) => ({
      serialNumber: serialText(entry.serial), model: entry.model, module: entry.module, address: link.address,
      online: link.online, lastSeen: link.lastSeen ? new Date(link.lastSeen).toISOString() : null,
    })));
  }

  /**
   * GET /api/v1/targets (Prometheus http_sd_config): one target group per address online, so that each
   * series is scraped once. An address of one module is labelled with its serial and model; an address
   * serving several (a simulator) lists their serials in `serials` and names no `serial` of its own,
   * since its series carry theirs (docs/telemetry.md).
   */
  targets(): string {
    const groups: { targets: string[]; labels: Record<string, string> }[] = [];
    for (const link of this.links.values()) {
      if (link.online && link.entries.length) groups.push({ targets: [link.address], labels: targetLabels(link.entries) });
    }
    return JSON.stringify(groups);
  }

  probeAll(): void {
    for (const link of this.links.values()) void link.probe();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.all().map((l) => l.close()));
  }
}

/** The labels of one scrape target: `serial` and `model` for one module; `serials` (and `model` when they share one) for several. */
export function targetLabels(entries: readonly ModuleEntry[]): Record<string, string> {
  const model = entries.every((e) => e.model === entries[0].model) && entries[0].model !== null ? String(entries[0].model) : '';
  const labels: Record<string, string> = entries.length === 1 ? { serial: serialText(entries[0].serial) } : { serials: entries.map((e) => serialText(e.serial)).join(',') };
  if (model) labels.model = model;
  return labels;
}
