// Moddable's mdns module as src/device/announce.ts uses it: a constructor that "claims" the host
// name it is given (or the next free -2, -3… when the test marks a name taken) on the next turn,
// and records the services added. Every instance is kept in `announced` for the tests.

interface Service { name: string; protocol: string; port: number; txt: Record<string, string> }

export default class MDNS {
  static hostName = 1;
  static readonly announced: MDNS[] = [];
  static readonly taken = new Set<string>();
  /** Set to make the constructor throw, as the SDK's desktop-host socket does for a multicast address. */
  static broken = false;
  hostName = '';
  readonly services: Service[] = [];
  closed = false;

  constructor(options: { hostName: string }, callback?: (message: number, value?: string) => void) {
    if (MDNS.broken) throw new Error('invalid multicast IP address');
    MDNS.announced.push(this);
    setImmediate(() => {
      let name = options.hostName;
      for (let n = 2; MDNS.taken.has(name); n++) name = `${options.hostName}-${n}`;
      this.hostName = name;
      callback?.(1, name);
    });
  }

  add(service: Service): void {
    this.services.push(service);
  }

  close(): void {
    this.closed = true;
  }
}
