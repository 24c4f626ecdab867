// The device HAL of a board profile, made under Node for build-time tools (the OpenAPI generator reads
// its published limits). Device code imports modules only XS has (embedded:io, preference, mc/config):
// they resolve to the Node stand-ins of tests/fakes, as in the device tests. No hardware, network or
// timer is used; the stand-ins' state is made fresh before and after.
import { board, freshWorld, makeModule } from '../tests/fakes/world';
import type { DeviceModule } from '../hal/device/module';

export function boardModule(raw: Record<string, unknown>): DeviceModule {
  freshWorld();
  try {
    return makeModule(board(raw));
  } finally {
    freshWorld();
  }
}
