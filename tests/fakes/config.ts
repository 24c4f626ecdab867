// Fake of `mc/config`: the manifest's config object. Tests fill it (setConfig) before the device
// entry is loaded, as mcconfig does at build time.

const config: Record<string, unknown> = {};

export function setConfig(values: Record<string, unknown>): void {
  for (const k of Object.keys(config)) delete config[k];
  Object.assign(config, values);
}

export default config;
