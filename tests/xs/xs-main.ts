// XS bundle entry: exposes the request path to xsnap-worker as globalThis.handleCommand
// (payload `?<script>` -> reply <events>; see tests/xs/script-format.ts).

import { runScript } from './xs-entry';

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer =>
  runScript(new Uint8Array(msg)).buffer as ArrayBuffer;
