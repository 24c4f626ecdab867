// The two stored documents (resources/*.json.gz): the simulator's and the device build's, each with
// its own firmware version. Node-only build-time helper for tools/gen-openapi.mjs and the tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openApiDocument } from '../src/openapi/generate';
import { FIRMWARE } from '../hal/sim/system';

export const SIM_DOCUMENT = 'resources/openapi-sim.json.gz';
export const DEVICE_DOCUMENT = 'resources/openapi-device.json.gz';

function deviceVersion(root: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8'));
  const f = manifest.config.firmware;
  return `${f.major}.${f.minor}.${f.patch}`;
}

export function openApiDocuments(root: string): { file: string; text: string }[] {
  const sim = `${FIRMWARE.major}.${FIRMWARE.minor}.${FIRMWARE.patch}`;
  return [
    { file: SIM_DOCUMENT, text: JSON.stringify(openApiDocument(sim)) },
    { file: DEVICE_DOCUMENT, text: JSON.stringify(openApiDocument(deviceVersion(root))) },
  ];
}
