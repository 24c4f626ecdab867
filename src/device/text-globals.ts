// Moddable's native TextEncoder/TextDecoder (modules text/encoder, text/decoder) as globals, as Node and
// xsnap have them, so util/text.ts takes its TextEncoder path on the device. Preloaded first in the
// manifest: text.ts picks its encoder when it loads.

import TextEncoder from 'text/encoder';
import TextDecoder from 'text/decoder';

const g = globalThis as { TextEncoder?: unknown; TextDecoder?: unknown };
if (typeof g.TextEncoder !== 'function') g.TextEncoder = TextEncoder;
if (typeof g.TextDecoder !== 'function') g.TextDecoder = TextDecoder;
