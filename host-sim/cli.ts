// How the Node-side programs (the simulator, the host server) report a command-line problem: one line
// `error: …` on stderr, a hint where one helps, exit status 2. The usage text is printed only for
// --help; a malformed command line (unknown option, missing value, stray argument) shows just the
// usage lines of the options it concerns.

/** A problem with the command line: main() prints it with fail(), its hints under it. */
export class UsageError extends Error {
  constructor(message: string, readonly hints: readonly string[] = []) {
    super(message);
  }
}

/** Prints `error: <message>` (and any extra lines) on stderr and exits with status 2. */
export function fail(message: string, extra: readonly string[] = []): never {
  console.error([`error: ${message}`, ...extra].join('\n'));
  process.exit(2);
}

/** What to say when the listening socket cannot be opened, with what to do about it. */
export function listenError(e: NodeJS.ErrnoException, host: string, port: number): string {
  if (e.code === 'EADDRINUSE') return `port ${port} is busy: pick another with --port N, or --port 0 for any free one`;
  if (e.code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine: pick one with --host ADDR`;
  if (e.code === 'EACCES') return `port ${port} needs privileges: pick one above 1023 with --port N`;
  return `cannot listen on ${host}:${port}: ${e.message}`;
}

/** The usage lines that describe `--flag` (its line and the indented lines that continue it). */
export function usageLines(usage: string, flag: string): string[] {
  const lines = usage.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^\\s+${flag}(\\s|$)`).test(l));
  if (at < 0) return [];
  let end = at + 1;
  while (end < lines.length && /^\s{6,}/.test(lines[end]) && !/^\s+--/.test(lines[end])) end++;
  return lines.slice(at, end);
}

/** The option names the usage text lists (`--port`, `--host`…). */
function flagsOf(usage: string): string[] {
  return [...usage.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]);
}

/** Options spelled like `bad`: the same letters but one (edit distance 1 or 2), or a prefix of it. */
function similar(bad: string, flags: readonly string[]): string[] {
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  return flags.filter((f) => distance(bad, f) <= 2 || (bad.length > 3 && f.startsWith(bad)));
}

/**
 * Turns an error of node:util parseArgs into a UsageError in the programs' own words, with the usage
 * lines of the options concerned as hints.
 */
export function parseArgsProblem(e: Error & { code?: string }, usage: string): UsageError {
  const quoted = /'(-[^' ]*)/.exec(e.message)?.[1] ?? '';
  const flag = quoted.replace(/^(--?[^=\s]+).*$/, '$1');
  let message: string;
  let hints: string[] = [];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = similar(flag, flagsOf(usage));
    message = `unknown option ${flag}` + (near.length ? '; did you mean:' : ' (--help lists the options)');
    hints = near.flatMap((f) => usageLines(usage, f));
  } else if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    message = / missing$/.test(e.message) ? `${flag} needs a value` : `${flag} takes no value`;
    hints = usageLines(usage, flag);
  } else if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']*)'/.exec(e.message)?.[1] ?? '';
    message = `unexpected argument '${arg}': every option starts with -- (--help lists them)`;
  } else {
    message = e.message;
  }
  return new UsageError(message, hints);
}
