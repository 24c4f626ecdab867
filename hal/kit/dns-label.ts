// A host name as the module announces it (DHCP, multicast DNS): one DNS label (RFC 1123 §2.1): 1 to 63
// letters, digits and hyphens, neither first nor last a hyphen (docs/limits.md).
// Shared by both HALs' ethernet/hostname.

import { ApiError, aErrParam } from './errors';

const RULE = 'a host name is 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen';

function isLabelByte(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 45;
}

/** `bytes` when they are one DNS label; else 400 aErrParam naming the rule. */
export function checkDnsLabel(what: string, bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  let ok = n >= 1 && n <= 63 && bytes[0] !== 45 && bytes[n - 1] !== 45;
  for (let i = 0; ok && i < n; i++) ok = isLabelByte(bytes[i]);
  if (!ok) throw new ApiError(aErrParam, `${what}: ${RULE}`);
  return bytes;
}
