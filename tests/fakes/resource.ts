// Fake of Moddable's `Resource`: the resources linked into the firmware, by name. A test puts the
// bytes it wants the device to find (`Resource.files`); `new Resource(name)` answers them as an
// ArrayBuffer, as the real one maps them from flash.

export default class Resource extends ArrayBuffer {
  static readonly files = new Map<string, Uint8Array>();

  static exists(name: string): boolean {
    return Resource.files.has(name);
  }

  constructor(name: string) {
    const bytes = Resource.files.get(name);
    if (!bytes) throw new Error(`Resource ${name} not found`);
    super(bytes.length);
    new Uint8Array(this).set(bytes);
  }
}
