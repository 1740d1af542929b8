/**
 * Issue 12, row 4: keys that name Object.prototype's members. The validator looked fields up with
 * `schema.properties?.[name]`, so `constructor` found Object's constructor and the tool rejected with
 * "validate(...) is not iterable". Every such key, sent to either tool, gets the documented refusal;
 * a tool never rejects for what the model sent. The host's context is read by own keys as well.
 */
import { describe, expect, it } from 'vitest';
import { GLOB_INPUT_SCHEMA, GREP_INPUT_SCHEMA, globTool, grepTool, validate } from '../../src/agent/index.js';
import { readContext } from '../../src/agent/context.js';
import { workspace } from '../helpers/agent.js';

const tree = { src: { 'a.ts': 'TODO here\n' }, 'README.md': '' };
const GLOB_KNOWN = '(known: "pattern", "path", "case_sensitive", "respect_git_ignore", "type", "limit", "sort")';
const GREP_KNOWN = '(known: "query", "include", "path", "case_sensitive", "respect_git_ignore", "limit", "regex", "output_mode", "max_matches_per_file", "context", "before", "after", "sort")';

/** Every name Object.prototype holds, `__proto__` included. */
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);

/** An input holding `key` as an own field, as JSON.parse makes it (JSON.parse makes `__proto__` an own key too). */
function withKey(base: Record<string, unknown>, key: string, value: unknown): unknown {
  return JSON.parse(JSON.stringify(base).replace(/}$/, `,${JSON.stringify(key)}:${JSON.stringify(value)}}`));
}

describe('prototype keys in model input', () => {
  it('covers the keys the issue names', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) expect(PROTOTYPE_KEYS).toContain(key);
  });

  it.each(PROTOTYPE_KEYS)('globTool refuses the field %s as unknown, and does not reject', async (key) => {
    for (const value of [1, { x: 1 }, 'x', null]) {
      const input = withKey({ pattern: '*' }, key, value);
      expect(Object.keys(input as object)).toContain(key);
      const answer = await globTool(input, workspace(tree));
      expect(answer).toMatchObject({ isError: true, content: `Invalid glob input: input.${key} is not a known field ${GLOB_KNOWN}.` });
    }
  });

  it.each(PROTOTYPE_KEYS)('grepTool refuses the field %s as unknown, and does not reject', async (key) => {
    for (const value of [1, { x: 1 }, 'x', null]) {
      const answer = await grepTool(withKey({ query: 'TODO' }, key, value), workspace(tree));
      expect(answer).toMatchObject({ isError: true, content: `Invalid grep input: input.${key} is not a known field ${GREP_KNOWN}.` });
    }
  });

  it('the exact inputs of the issue', async () => {
    await expect(globTool({ pattern: '*', constructor: 1 }, workspace(tree))).resolves.toMatchObject({
      isError: true,
      content: `Invalid glob input: input.constructor is not a known field ${GLOB_KNOWN}.`,
    });
    await expect(globTool(JSON.parse('{"pattern":"*","__proto__":{"x":1}}'), workspace(tree))).resolves.toMatchObject({
      isError: true,
      content: `Invalid glob input: input.__proto__ is not a known field ${GLOB_KNOWN}.`,
    });
  });

  it('a required field named like a prototype member is still required; only own fields count', async () => {
    // `{}` has a `constructor` and a `toString`, but neither a pattern nor a query of its own.
    expect(validate(GLOB_INPUT_SCHEMA, {})).toEqual(['input.pattern is required']);
    const inherited = Object.create({ pattern: '*.ts', limit: 'ten' }) as object;
    expect(validate(GLOB_INPUT_SCHEMA, inherited)).toEqual([
      'input.pattern is inherited, not given: send it as a field of the input',
      'input.limit is inherited, not given: send it as a field of the input',
    ]);
    await expect(globTool(inherited, workspace(tree))).resolves.toMatchObject({ isError: true });
    const withOwnPattern = Object.assign(Object.create({ sort: 'nonsense' }) as object, { query: 'TODO' });
    expect(validate(GREP_INPUT_SCHEMA, withOwnPattern)).toEqual(['input.sort is inherited, not given: send it as a field of the input']);
  });

  it('still answers normally when the input is clean', async () => {
    const answer = await globTool({ pattern: '*.ts' }, workspace(tree));
    expect(answer).toMatchObject({ isError: false, content: 'src/a.ts' });
  });
});

describe('the host context is read by own keys', () => {
  it('ignores settings that only a prototype holds', () => {
    const proto = { rgPath: '/tmp/evil/rg', backend: 'ripgrep', timeBudgetMs: 1, env: { PATH: '/tmp/evil' }, exclude: [] };
    const ctx = Object.assign(Object.create(proto) as object, { root: '/w', platform: 'posix' });
    const settings = readContext(ctx as never);
    expect(settings).toMatchObject({ workspaceRoot: '/w', backend: 'walker', timeBudgetMs: 10_000, exclude: ['.git/', 'node_modules/'] });
    expect(settings.ctx.rgPath).toBeUndefined();
    expect(settings.ctx.env).toBeUndefined();
  });

  it('refuses a root that is only inherited', () => {
    expect(() => readContext(Object.create({ root: '/w' }) as never)).toThrow(expect.objectContaining({ name: 'FindFileError', code: 'FF_MISSING_OPTION', option: 'root' }));
  });
});
