// crypt (the SDK's Digest) under Node: tests/fakes/ota.ts.
export { Digest } from './ota';
