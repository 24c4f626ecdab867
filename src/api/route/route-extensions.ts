// Routes beyond operations.tsv, kept apart so that route-table.ts stays a copy of the contract.
// store/{index}/slotdata/{slot}: a slot's bytes as application/octet-stream (GET), or replaced by a raw
// body (PUT) — how a user fetches a bulk capture without 2-byte pointer reads.

import type { RouteRow } from './route-table';
import { deepFreeze } from '../../../util/freeze';

export const EXTENSION_ROWS: readonly RouteRow[] = deepFreeze<readonly RouteRow[]>([
  ['store', 'slotdata', '{slot}', 'bytes', 'BYTES', 'bytes:raw', 'byte', '', ''],
]);
