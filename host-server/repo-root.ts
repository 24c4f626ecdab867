// The repository root, from build/host-server/ or host-server/: where package.json and resources/ are.
import * as path from 'node:path';

export function repoRoot(): string {
  const up = path.resolve(__dirname, '..');
  return path.basename(up) === 'build' ? path.resolve(up, '..') : up;
}
