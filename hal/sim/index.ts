// The host-simulator HAL: one simulated module (by default with every entity of operations.tsv; profiles/
// holds modules modelled on real ones), state per entity instance, measurements that follow settings
// and simulated time. Standard ECMAScript only (it also runs under XS): time comes from options.now and
// is read lazily, persistence goes through SimStorage (host-sim/state-file.ts keeps it in a file).

export { createSimModule, type SimModule, type SimOptions } from './module';
export { memoryStorage, type SimStorage } from './persist';
export { PROFILES, findProfile, MTM_PM_1, USBHUB3P, USBSTEM } from './profiles/index';
export { profileProblems } from './profiles/check';
export { EVERYTHING, type PdPartner, type PortDevice, type RailSpec, type SimProfile, type StoreSpec } from './profile';
