// ESLint (flat config) with typescript-eslint: `make lint`, and `make test` runs it.
// A small rule set, fast on purpose (no type-aware rules): typescript-eslint's `recommended`, the
// size limits of DEVELOPERS.md (300 lines a file, 60 a function, counting every line), and the
// device boundary (util/, src/ and hal/ run under XS: no Node modules, no Buffer, no process, no require).
import { defineConfig } from 'eslint/config';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';

const MAX_LINES = ['error', { max: 300, skipBlankLines: false, skipComments: false }];
const MAX_LINES_PER_FUNCTION = ['error', { max: 60, skipBlankLines: false, skipComments: false }];

// In tests, max-lines-per-function except for the callback of a mocha `describe`: that callback is a
// list of test cases (each `it` is a function of its own and is held to 60 lines), not one piece of
// logic. Everywhere else the core rule applies, so a HAL factory that is one table of behaviours says
// `// eslint-disable-next-line max-lines-per-function -- <why>` above itself.
const coreMaxLinesPerFunction = builtinRules.get('max-lines-per-function');
const isDescribeCallback = (node) =>
  node.parent?.type === 'CallExpression' && node.parent.callee.type === 'Identifier' &&
  node.parent.callee.name === 'describe' && node.parent.arguments.includes(node);
const local = {
  rules: {
    'max-lines-per-function': {
      meta: coreMaxLinesPerFunction.meta,
      create(context) {
        const listeners = coreMaxLinesPerFunction.create(context);
        const skipDescribe = (listener) => (node) => { if (!isDescribeCallback(node)) listener(node); };
        return Object.fromEntries(Object.entries(listeners).map(([k, f]) => [k, skipDescribe(f)]));
      },
    },
  },
};

// Made by tools/ from data; their size is the size of the data (make gen / make build).
const GENERATED = [
  'src/api/route/route-table.ts',
  'hal/entity-ops.ts',
  'hal/entity-values.ts',
  'src/web/console-page.ts',
];

export default defineConfig(
  {
    // native/ and the anchor's floor: XS JavaScript with host functions (`static f() @ "xs_f"`), which only xsc parses.
    ignores: ['build/**', 'node_modules/**', 'resources/**', 'docs/**', 'native/**/*.js', 'tools/pico-anchor/floor.js', ...GENERATED],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    rules: {
      'max-lines': MAX_LINES,
      'max-lines-per-function': MAX_LINES_PER_FUNCTION,
      // Arguments and locals named `_x` are kept on purpose (an interface's shape, a destructured
      // value left out); everything else unused is dead code.
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none',
      }],
    },
  },
  {
    // Device side: what the XS engine offers, nothing from Node.
    files: ['util/**/*.ts', 'src/**/*.ts', 'hal/**/*.ts'],
    rules: {
      // Only the `node:` form: bare names such as `net`, `time` and `timer` are Moddable modules here
      // (make check type-checks device code with no Node types, which catches a bare Node import).
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['node:*'], message: 'Device code runs under XS: no Node modules.' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'Buffer', message: 'Device code runs under XS: use Uint8Array.' },
        { name: 'process', message: 'Device code runs under XS: no process.' },
        { name: 'require', message: 'Device code runs under XS: use import.' },
      ],
    },
  },
  {
    // Tests read parsed JSON replies as `any` and walk into them; the assertions check the shape.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['tests/**/*.ts'],
    plugins: { local },
    rules: {
      'max-lines-per-function': 'off',
      'local/max-lines-per-function': MAX_LINES_PER_FUNCTION,
    },
  },
  {
    // The console's three scripts are inlined into one page, in order (console.js, live.js,
    // entities.js), and share one scope: what one declares, the next uses.
    files: ['web/*.js'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
);
