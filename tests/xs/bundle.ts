// esbuild bundling of the XS side, shared by tests/xs-parity.test.ts and tools/bench-xs.mjs.

import * as path from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles `entry` (a TypeScript file under `root`) into one IIFE script for xsnap-worker.
 * Target ES2022 is what tsc emits for the device (tsconfig.json), and XS runs it natively, so the
 * syntax under test is the syntax the device gets. Not minified by default: XS errors stay readable.
 */
export async function bundleForXs(root: string, entry: string, minify = false): Promise<string> {
  const result = await build({
    entryPoints: [path.resolve(root, entry)],
    bundle: true,
    format: 'iife',
    platform: 'neutral',
    target: 'es2022',
    minify,
    write: false,
    logLevel: 'silent',
    absWorkingDir: root,
    tsconfig: path.join(root, 'tsconfig.json'),
  });
  return result.outputFiles[0].text;
}
