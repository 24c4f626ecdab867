// Helpers for the simulator tests: HTTP requests to a running server, starting the simulator
// command line as a child process, temp directories.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

export interface HttpAnswer { status: number; json: any }

/** One request on a fresh connection (to `host`, curl-like: no Origin, Referer or User-Agent); `value` makes it a PUT with {"value": value}. */
export function request(port: number, method: string, urlPath: string, value?: unknown, host = '127.0.0.1'): Promise<HttpAnswer> {
  const body = value === undefined ? undefined : JSON.stringify({ value });
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port, method, path: urlPath, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const get = (port: number, p: string): Promise<HttpAnswer> => request(port, 'GET', p);
export const put = (port: number, p: string, value: unknown): Promise<HttpAnswer> => request(port, 'PUT', p, value);

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sim-test-'));
}

export interface SimProcess {
  child: ChildProcess;
  port: number;
  stdout: string;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Start build/host-sim/main.js with `args` (plus --port 0); resolves once it prints its port. */
export function startSim(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SimProcess> {
  const main = path.resolve(__dirname, '../host-sim/main.js');
  const child = spawn(process.execPath, [main, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /127\.0\.0\.1:(\d+)/.exec(out);
      // Wait for the whole banner (its last line starts with "try:").
      if (m && /\ntry: /.test(out)) {
        resolve({
          child, port: Number(m[1]), stdout: out, stderr: () => err,
          stop: () => { child.kill('SIGTERM'); return exited; },
        });
      }
    });
    void exited.then((code) => reject(new Error(`simulator exited ${code}: ${err}`)));
  });
}
