// Shared by every simulated entity: the time source, the register files, persistence, the event log
// and the system error bitmap, plus the hooks that let the module stay lazy:
// - advance(t) runs before every HAL call, so time-driven effects (energy accumulation, latched faults,
//   a capture finishing) are brought up to date from now() without any timer;
// - reboot runs on system/reset: registers go back to saved settings, volatile models restart.

import { ERR_STORAGE, ErrorWord } from '../kit/error-word';
import type { EntityName, ValuesOf } from '../types';
import { Persist, type SimStorage } from './persist';
import { countOf, type SimProfile } from './profile';
import { RegisterFile, type TypedRegisterTable } from './registers';

const MAX_EVENTS = 64;

export class SimContext {
  readonly persist: Persist;
  /** Wall time (options.now) of the last power-up or reset. */
  bootTime: number;
  /** Module clock minus wall time, ms: the clock entity sets it. Survives reset (a battery-backed RTC). */
  clockOffset = 0;
  /** system/errors: set by faults, cleared by reading it and by a reset (hal/kit/error-word.ts). */
  readonly errors = new ErrorWord();
  private readonly files = new Map<string, RegisterFile>();
  private readonly advanceHooks: ((t: number) => void)[] = [];
  /** Wall time the hooks last ran at, and whether state changed since: hooks are skipped otherwise. */
  private advancedAt = NaN;
  /** The instant of the hook pass under way, NaN outside one. */
  private hookTime = NaN;
  private dirty = true;
  private readonly rebootHooks: (() => void)[] = [];
  private events: string[] = [];

  /**
   * @param timeStepMs the simulation's time resolution when nothing changed: the hooks run again only
   *   once time has moved this far (0: whenever it moved at all). The live simulator uses a few ms,
   *   so a stream of requests does not re-run every model once per millisecond; tests keep 0.
   */
  constructor(
    readonly serial: number,
    readonly profile: SimProfile,
    private readonly wallNow: () => number,
    storage: SimStorage,
    private readonly timeStepMs = 0,
  ) {
    this.persist = new Persist(storage);
    this.bootTime = wallNow();
  }

  /** Wall time in ms (the injected time source): drives everything the simulation does over time. */
  wall(): number {
    // During a pass of the advance hooks time stands still at the pass's instant: one reading of
    // the time source instead of one per model function the hooks call.
    return this.hookTime === this.hookTime ? this.hookTime : this.wallNow();
  }

  /** The module clock (ms since the Unix epoch, UTC). */
  moduleNow(): number {
    return this.wallNow() + this.clockOffset;
  }

  uptimeMs(): number {
    return Math.max(0, this.wallNow() - this.bootTime);
  }

  count(entity: EntityName): number {
    return countOf(this.profile, entity);
  }

  /** The register file of an entity, loaded with its saved settings; its defaults typed by the value map. */
  registers<E extends EntityName>(
    entity: E, table: TypedRegisterTable<ValuesOf<E>>, volatile: readonly string[] = [], count = this.count(entity),
  ): RegisterFile {
    const file = new RegisterFile(entity, count, table, volatile);
    for (let i = 0; i < file.count; i++) file.load(i, this.persist.settingsOf(entity, i));
    this.files.set(entity, file);
    return file;
  }

  registerFile(entity: string): RegisterFile | undefined {
    return this.files.get(entity);
  }

  onAdvance(hook: (t: number) => void): void {
    this.advanceHooks.push(hook);
  }

  onReboot(hook: () => void): void {
    this.rebootHooks.push(hook);
  }

  /**
   * Bring time-driven effects up to now before a derived value is read. The hooks run only when
   * time moved or state changed since they last ran: a burst of reads in one millisecond costs one
   * pass, and a plain setting read (entity.ts) costs none.
   */
  advance(): void {
    const t = this.wallNow();
    if (this.dirty) this.runHooks(t);
    else if (t !== this.advancedAt && !this.recent(t)) this.runHooks(t);
  }

  /** Did the hooks run at `t`, or less than a time step before it? */
  private recent(t: number): boolean {
    return t === this.advancedAt || (t > this.advancedAt && t - this.advancedAt < this.timeStepMs);
  }

  /**
   * State is about to change: integrate what happened up to now under the old state (only when
   * time moved by a time step: within one, that bit is integrated later, under the new state), then mark it changed so the next derived read re-checks limits and latches faults.
   * A PUT thus advances the physics at most once, however its read-back is made.
   */
  touch(): void {
    const t = this.wallNow();
    if (!this.recent(t)) this.runHooks(t);
    this.dirty = true;
  }

  private runHooks(t: number): void {
    this.advancedAt = t;
    this.dirty = false;
    this.hookTime = t;
    try {
      for (const hook of this.advanceHooks) hook(t);
    } finally {
      this.hookTime = NaN;
    }
    if (this.persist.failed) {
      this.persist.failed = false;
      this.flagError(ERR_STORAGE, 'storage write failed');
    }
  }

  /** system/reset: unsaved settings are dropped, saved ones come back, volatile state restarts. */
  reboot(): void {
    this.advance(); // close the books (energy counters...) before the state they depend on goes
    this.bootTime = this.wallNow();
    this.errors.clear();
    this.files.forEach((file, entity) => {
      for (let i = 0; i < file.count; i++) file.load(i, this.persist.settingsOf(entity, i));
    });
    for (const hook of this.rebootHooks) hook();
    this.dirty = true;
    this.log('reset');
  }

  /** system/save: every setting of every entity becomes the saved one. */
  saveAll(): void {
    this.persist.clearSettings();
    this.files.forEach((file, entity) => {
      for (let i = 0; i < file.count; i++) {
        const s = file.settings(i);
        if (Object.keys(s).length) this.persist.setSettings(entity, i, s);
      }
    });
    this.persist.write();
    this.log('settings saved');
  }

  /** system/resetdevicetofactorydefaults: saved settings erased, every register back to factory. */
  factoryDefaults(): void {
    this.persist.clearSettings();
    this.persist.write();
    this.files.forEach((file) => { for (let i = 0; i < file.count; i++) file.clear(i); });
    this.log('factory defaults');
  }

  /** userconfig: one entity instance's settings saved, loaded back, or reset to factory. */
  saveEntity(entity: string, index: number): void {
    const file = this.files.get(entity);
    this.persist.setSettings(entity, index, file ? file.settings(index) : {});
    this.persist.write();
  }

  loadEntity(entity: string, index: number): void {
    this.files.get(entity)?.load(index, this.persist.settingsOf(entity, index));
  }

  factoryEntity(entity: string, index: number): void {
    this.files.get(entity)?.clear(index);
  }

  flagError(bit: number, what: string): void {
    if (this.errors.flag(bit)) this.log(what);
  }

  log(text: string): void {
    this.events.push(`${this.uptimeMs()} ${text}`);
    if (this.events.length > MAX_EVENTS) this.events = this.events.slice(-MAX_EVENTS);
  }

  eventLog(): readonly string[] {
    return this.events;
  }
}
