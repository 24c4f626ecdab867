// The two stored documents (resources/*.json.gz): the simulator's and the device build's, each with
// its own firmware version and the bounds its module publishes: the simulator's default profile
// (what `make sim` serves without --profile) and the device HAL made from the esp32 board profile of
// manifest.json. Node-only build-time helper for tools/gen-openapi.mjs and the tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openApiDocument } from '../src/openapi/generate';
import { moduleBounds, type BoundsSource } from '../src/openapi/module-bounds';
import { FIRMWARE } from '../hal/sim/system';
import { createSimModule, findProfile } from '../hal/sim/index';
import { DEFAULT_PROFILE } from '../host-sim/options';
import { boardModule } from './board-module';

export const SIM_DOCUMENT = 'resources/openapi-sim.json.gz';
export const DEVICE_DOCUMENT = 'resources/openapi-device.json.gz';
/** The manifest platform whose board profile the device document describes. */
export const DEVICE_PLATFORM = 'esp32';

interface Manifest {
  config: { firmware: { major: number; minor: number; patch: number } };
  platforms: { [name: string]: { config?: { board?: Record<string, unknown> } } };
}

/** The simulator's default profile, as a bounds source. */
export function simSource(): BoundsSource {
  const profile = findProfile(DEFAULT_PROFILE)!;
  return { bounds: moduleBounds(createSimModule({ profile })), from: `the simulator's default profile (${profile.name})` };
}

/** The device board of `manifest` (manifest.json's esp32 platform), as a bounds source. */
export function deviceSource(manifest: Manifest): BoundsSource {
  const raw = manifest.platforms[DEVICE_PLATFORM]?.config?.board;
  if (!raw) throw new Error(`manifest.json: platforms.${DEVICE_PLATFORM}.config.board is missing`);
  const m = boardModule(raw);
  return { bounds: moduleBounds(m), from: `the device board (${m.name})` };
}

/** `manifestFile`: the manifest to read (default the repository's manifest.json). */
export function openApiDocuments(root: string, manifestFile = path.join(root, 'manifest.json')): { file: string; text: string }[] {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const f = manifest.config.firmware;
  const sim = `${FIRMWARE.major}.${FIRMWARE.minor}.${FIRMWARE.patch}`;
  return [
    { file: SIM_DOCUMENT, text: JSON.stringify(openApiDocument(sim, simSource())) },
    { file: DEVICE_DOCUMENT, text: JSON.stringify(openApiDocument(`${f.major}.${f.minor}.${f.patch}`, deviceSource(manifest))) },
  ];
}
