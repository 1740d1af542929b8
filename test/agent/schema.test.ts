/**
 * The input schemas: well formed (only keywords the validator knows), and they accept and refuse
 * the inputs a model may send.
 */
import { describe, expect, it } from 'vitest';
import { GLOB_INPUT_SCHEMA, GREP_INPUT_SCHEMA, checkSchema, validate, type JsonSchema } from '../../src/agent/index.js';

describe('schemas', () => {
  it.each([['glob', GLOB_INPUT_SCHEMA], ['grep', GREP_INPUT_SCHEMA]] as const)('%s: a closed object schema with described fields, survives JSON', (_, schema) => {
    expect(checkSchema(schema)).toEqual([]);
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    for (const [name, property] of Object.entries(schema.properties!)) expect(property.description, name).toMatch(/\w/);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it('checkSchema refuses a keyword the validator would ignore', () => {
    const loose = { type: 'object', properties: { a: { type: 'string', pattern: '^x' } }, required: ['b'] } as unknown as JsonSchema;
    expect(checkSchema(loose)).toEqual(['#: required "b" is not a property', '#/properties/a: unsupported keyword "pattern"']);
  });

  it.each([
    [{ pattern: '*.ts' }],
    [{ pattern: 'src/**/*.ts', path: 'src', limit: 500, sort: 'relevance' }],
    [{ pattern: 'x', limit: 100000 }],
  ])('glob accepts %j', (input) => expect(validate(GLOB_INPUT_SCHEMA, input)).toEqual([]));

  it.each([
    [{ query: 'TODO' }],
    [{ query: 'fn\\s+main', regex: true, include: '*.rs', path: 'crates', limit: 20, sort: 'path' }],
  ])('grep accepts %j', (input) => expect(validate(GREP_INPUT_SCHEMA, input)).toEqual([]));

  it.each([
    [{ pattern: '*.ts' }, ['input.query is required', 'input.pattern is not a known field (known: "query", "include", "path", "case_sensitive", "respect_git_ignore", "limit", "regex", "output_mode", "max_matches_per_file", "context", "before", "after", "sort")']],
    [{ query: 'x', regex: 'yes' }, ['input.regex must be true or false, got "yes"']],
    [{ query: 'x', include: '' }, ['input.include must not be empty']],
    [{ query: 'x', limit: -1 }, ['input.limit must be at least 1, got -1']],
    [[], ['input must be an object, got an array']],
  ])('grep refuses %j', (input, problems) => expect(validate(GREP_INPUT_SCHEMA, input)).toEqual(problems));
});
