// The documentation stands alone and stays true: every relative link and anchor in README.md and
// docs/*.md resolves inside the repository, the README stays a five-minute read, the pages speak of
// the product (not of how it was made), and the example files shown in docs/clients.md are the
// files tests/examples.test.ts runs.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

const read = (rel: string): string => fs.readFileSync(path.join(ROOT, rel), 'utf8');

/** The text outside fenced code blocks and inline code, where Markdown links live. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1].replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

function links(text: string): string[] {
  const body = prose(text);
  return [...body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...body.matchAll(/<((?:https?:)?[^<>\s]+)>/g)]
    .map((m) => m[1]).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('documentation', () => {
  it('README.md and docs/ exist and the README is at most 200 lines', () => {
    assert.ok(PAGES.length > 5, PAGES.join(' '));
    const lines = read('README.md').split('\n').length - 1;
    assert.ok(lines <= 200, `README.md has ${lines} lines`);
  });

  for (const page of PAGES) {
    it(`${page}: every relative link and anchor resolves inside the repository`, () => {
      const problems: string[] = [];
      for (const target of links(read(page))) {
        const [file, anchor] = target.split('#');
        const resolved = file ? path.resolve(ROOT, path.dirname(page), decodeURI(file)) : path.join(ROOT, page);
        const rel = path.relative(ROOT, resolved);
        if (rel.startsWith('..') || path.isAbsolute(rel)) problems.push(`${target}: leaves the repository`);
        else if (!fs.existsSync(resolved)) problems.push(`${target}: no such file`);
        else if (anchor !== undefined && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
          problems.push(`${target}: no heading with that anchor in ${rel}`);
        }
      }
      assert.deepEqual(problems, []);
    });

    it(`${page}: tells the product, not its making`, () => {
      // Lower-case `session` only: `requests.Session` is an API name.
      const history = /\b(?:sessions?|[Ii]ssue\s+#?\d+|[Ff]inal main|[Ll]ast time|used to be|ago|this round|before this)\b/g;
      const found = read(page).split('\n').flatMap((l, i) => [...l.matchAll(history)].map((m) => `line ${i + 1}: ${m[0]}`));
      assert.deepEqual(found, []);
    });
  }

  it('anchors follow GitHub: punctuation dropped, repeats numbered', () => {
    assert.deepEqual([...anchors('# What a module has and accepts\n## make bench\n## A b\n## A b\n```\n# not\n```\n')],
      ['what-a-module-has-and-accepts', 'make-bench', 'a-b', 'a-b-1']);
  });

  it('docs/clients.md shows each example file as it is', () => {
    const text = read('docs/clients.md');
    const shown = [...text.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)^```/gm)];
    assert.deepEqual(shown.map((m) => m[1]).sort(), ['examples/client.mjs', 'examples/client.py', 'examples/curl.sh',
      'examples/token-client.mjs', 'examples/token-client.py', 'examples/token.sh']);
    for (const [, file, body] of shown) assert.equal(body, read(file), `${file} differs from its copy in docs/clients.md`);
  });
});
