// Why a module restarted, as GET /metrics labels brainstem_restarts_total (docs/telemetry.md): the
// watchdog fired, the power came on, a firmware update, a reset asked for (system/reset, factory
// defaults, the reset pin), or a crash (a panic, XS aborting).

export const RESTART_CAUSES: readonly string[] = Object.freeze(['watchdog', 'power', 'update', 'reset', 'crash']);
