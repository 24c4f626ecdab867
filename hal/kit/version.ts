// BrainStem's packed versions, the one packing both HALs report in system/version and hardwareversion.

/** major in bits 28..31, minor in 24..27, patch in 0..23. */
export function packVersion(major: number, minor: number, patch: number): number {
  return (((major & 0xf) << 28) | ((minor & 0xf) << 24) | (patch & 0xffffff)) >>> 0;
}

/** system/hardwareversion: the model in bits 24..31, the board's revision in 0..23. */
export function packHardwareVersion(model: number, revision: number): number {
  return (((model & 0xff) << 24) | (revision & 0xffffff)) >>> 0;
}
