// The host-simulator HAL: one simulated module with every entity of operations.tsv, state per entity
// instance, measurements that follow settings and simulated time. Standard ECMAScript only (it also runs
// under XS): time comes from options.now and is read lazily, persistence goes through SimStorage.

export { createSimModule, type SimModule, type SimOptions } from './module';
export { memoryStorage, type SimStorage } from './persist';
export { EVERYTHING, type PdPartner, type PortDevice, type RailSpec, type SimProfile, type StoreSpec } from './profile';
