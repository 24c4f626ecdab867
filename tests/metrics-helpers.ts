// Helpers for the GET /metrics tests: a scrape through a raw Connection, and a strict reader of the
// text exposition format 0.0.4 (families with their HELP, TYPE and samples, in order).
import { strict as assert } from 'node:assert';
import type { Api } from '../src/api/api';
import { rawExchange, splitResponses } from './helpers';

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Family { name: string; help: string; type: string; samples: Sample[] }

export const NOW = 1735787045678;
const CRLF = '\r\n';

/** The request bytes of one scrape (or another method/target), with extra header lines. */
export function scrapeRequest(method = 'GET', target = '/metrics', extra = '', version = '1.1'): string {
  return `${method} ${target} HTTP/${version}${CRLF}Host: 127.0.0.1${CRLF}${extra}${CRLF}`;
}

/** One request on a fresh Connection, its answer (de-chunked) and whether the connection closed. */
export function scrape(api: Api, method = 'GET', target = '/metrics', extra = ''): { status: number; head: string; body: string; closed: boolean } {
  const x = rawExchange(api, [scrapeRequest(method, target, extra)], () => NOW);
  const list = method === 'HEAD' ? [{ status: Number(x.out.slice(9, 12)), head: x.out.slice(0, -4), body: '' }] : splitResponses(x.out);
  assert.equal(list.length, 1, x.out.slice(0, 300));
  return { ...list[0], closed: x.closed };
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{((?:[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*",?)*)\} (\S+)$/;

/**
 * Reads an exposition strictly: every sample belongs to the family whose HELP and TYPE came just
 * before it, a family appears once, the text ends with a newline. Throws on anything else.
 */
export function parseExposition(text: string): Family[] {
  assert.ok(text.endsWith('\n'), 'the exposition ends with a line feed');
  const families: Family[] = [];
  const seen = new Set<string>();
  let current: Family | null = null;
  for (const line of text.slice(0, -1).split('\n')) {
    let m: RegExpExecArray | null;
    if ((m = /^# HELP (\S+) (.+)$/.exec(line))) {
      assert.ok(NAME.test(m[1]) && !seen.has(m[1]), `family ${m[1]} named twice or badly`);
      seen.add(m[1]);
      current = { name: m[1], help: m[2], type: '', samples: [] };
      families.push(current);
    } else if ((m = /^# TYPE (\S+) (gauge|counter)$/.exec(line))) {
      assert.ok(current && current.name === m[1] && current.type === '', `TYPE ${m[1]} not right after its HELP`);
      current.type = m[2];
    } else if ((m = SAMPLE.exec(line))) {
      assert.ok(current && current.type && current.name === m[1], `sample ${m[1]} outside its family`);
      const labels: Record<string, string> = {};
      for (const pair of m[2].split(/,(?=[a-z])/)) {
        if (!pair) continue;
        const eq = pair.indexOf('=');
        labels[pair.slice(0, eq)] = pair.slice(eq + 2, pair.endsWith(',') ? -2 : -1);
      }
      const value = Number(m[3]);
      assert.ok(Number.isFinite(value) && /^-?[0-9.e+-]+$/.test(m[3]), `value ${m[3]}`);
      current.samples.push({ name: m[1], labels, value });
    } else {
      assert.fail(`not an exposition line: ${JSON.stringify(line)}`);
    }
  }
  return families;
}

/** family name -> its samples keyed by their labels ("serial,index[,param...]"). */
export function sampleMap(families: Family[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of families) for (const s of f.samples) out.set(f.name + JSON.stringify(s.labels), s.value);
  return out;
}
