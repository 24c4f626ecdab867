// The project's native ota-state module under Node: tests/fakes/ota.ts.
import { OtaState } from './ota';
export default OtaState;
