// Fake of Moddable's `sntp` module: records the servers asked; never answers (no traffic leaves).

export const asked: string[] = [];

export default class SNTP {
  static readonly time = 1;
  static readonly retry = 2;
  static readonly error = -1;
  constructor(options: { host: string }, _callback: (message: number, value?: number) => void) {
    asked.push(options.host);
  }
}
