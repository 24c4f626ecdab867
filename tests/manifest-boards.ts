// The board profiles of manifest.json (config.board of each platform), as the tests read them.

import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export type RawBoard = Record<string, unknown>;

/** Every platform of manifest.json that has a board profile: [platform, raw profile]. */
export function manifestBoards(): [string, RawBoard][] {
  const m = JSON.parse(fs.readFileSync(path.join(ROOT, 'manifest.json'), 'utf8')) as {
    platforms: Record<string, { config?: { board?: RawBoard } }>;
  };
  return Object.entries(m.platforms).filter(([, p]) => p.config?.board).map(([name, p]) => [name, p.config!.board!]);
}
