// embedded:storage/flash under Node: tests/fakes/ota.ts.
import { Flash } from './ota';
export type { Flash } from './ota';
export default Flash;
