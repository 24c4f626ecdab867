// XS's `trace` global, for the device code compiled under Node (tests/fakes/install.ts defines it).
declare function trace(text: string): void;
