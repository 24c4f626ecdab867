// The Python that runs the client examples: the first of `python3` on PATH and Debian's /usr/bin/python3
// that has the requests module (`make examples-deps` installs Debian's python3-requests; a PATH python3
// from pyenv or a venv does not see it).

import { spawnSync } from 'node:child_process';

function hasRequests(python: string): boolean {
  const probe = spawnSync(python, ['-c', 'import requests'], { encoding: 'utf8' });
  return !probe.error && probe.status === 0;
}

/** A python3 with requests, or `python3` (whose runs then fail saying requests is missing). */
export const PYTHON: string = ['python3', '/usr/bin/python3'].find(hasRequests) ?? 'python3';
