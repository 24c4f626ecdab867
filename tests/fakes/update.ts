// embedded:update under Node: tests/fakes/ota.ts.
import { Update } from './ota';
export default Update;
