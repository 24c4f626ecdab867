// BrainStem's packed firmware version (aVersion), the one packing both HALs report in system/version.

/** major in bits 28..31, minor in 24..27, patch in 0..23. */
export function packVersion(major: number, minor: number, patch: number): number {
  return (((major & 0xf) << 28) | ((minor & 0xf) << 24) | (patch & 0xffffff)) >>> 0;
}
