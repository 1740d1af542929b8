/**
 * The tools' input schemas (JSON Schema, the subset function-calling APIs accept) and the small
 * validator the tools run them through. The schema is the single statement of what the model may
 * send: the tools check every call against it, so a schema and its tool cannot drift apart.
 *
 * The validator knows exactly the keywords used here (type, properties, required,
 * additionalProperties: false, minLength, minimum, enum, description). A schema using any other
 * keyword is rejected by `checkSchema`, so it can never be silently half-validated.
 *
 * Every lookup is of an own property: the model's keys are arbitrary text, and `constructor`,
 * `toString` or a JSON `__proto__` must not find Object.prototype's members (in the schema or in the
 * input). A known field that is readable on the input without being its own (an inherited value)
 * is refused, because the tools read their fields with ordinary property access.
 */
import { DEFAULT_LIMIT, MAX_CONTEXT_LINES, MAX_LIMIT } from './context.js';
import { quote } from './text-words.js';

/** The subset of JSON Schema the tools' schemas use and `validate` knows: nothing else is accepted (`checkSchema`). */
export interface JsonSchema {
  /** The value's JSON type. */
  type: 'object' | 'string' | 'integer' | 'boolean';
  /** What the model reads about the value. */
  description?: string;
  /** An object's fields, by name. */
  properties?: Record<string, JsonSchema>;
  /** An object's fields that must be given. */
  required?: string[];
  /** Always `false` where present: a field not in `properties` is refused. */
  additionalProperties?: false;
  /** A string's least length, in UTF-16 code units. */
  minLength?: number;
  /** An integer's least value. */
  minimum?: number;
  /** A string's allowed values. */
  enum?: string[];
}

const limit: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: `How many results to return. Default ${DEFAULT_LIMIT}; values above ${MAX_LIMIT} are capped at ${MAX_LIMIT}.`,
};

const searchPath: JsonSchema = {
  type: 'string',
  description: 'Directory to search, relative to the workspace root (for example "src"). Default: the workspace root. Absolute paths and ".." outside the workspace are refused.',
};

const grepPath: JsonSchema = {
  type: 'string',
  description: 'Directory (or one file) to search, relative to the workspace root (for example "src" or "src/app.ts"). Default: the workspace root. Absolute paths and ".." outside the workspace are refused.',
};

const respectGitIgnore: JsonSchema = {
  type: 'boolean',
  description: 'Leave out what the ignore files ignore, as ripgrep does: .gitignore (in a git repository), .ignore, .rgignore, .git/info/exclude. Default true; the answer says how many paths they left out. false: search every file.',
};

const sort: JsonSchema = {
  type: 'string',
  enum: ['path', 'relevance'],
  description: '"path" (default): sorted by path. "relevance": names holding the words of the query first, source before build output and vendored code, tests next to the code they test, small files before huge ones.',
};

const globSort: JsonSchema = {
  type: 'string',
  enum: ['path', 'relevance', 'mtime'],
  description: '"path" (default): sorted by path. "mtime": most recently modified first. "relevance": names holding the words of the query first, source before build output and vendored code, tests next to the code they test, small files before huge ones.',
};

function contextLines(description: string): JsonSchema {
  return { type: 'integer', minimum: 0, description: `${description}; at most ${MAX_CONTEXT_LINES}, for output_mode "content" only. Each line is shown once; "--" separates groups that do not run on.` };
}

/** globTool's input schema, to declare the tool to a model: every call is checked against it (`GlobInput`). */
export const GLOB_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Find files by name or path pattern.',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      description: 'A glob over paths relative to the search directory, "/" separated. Without "/", it matches file names at any depth: "*.ts", "loginService.ts". With "/": "src/**/*.test.ts".',
    },
    path: searchPath,
    case_sensitive: {
      type: 'boolean',
      description: 'Match the pattern with case. Default: true, except on Windows, where file names ignore case.',
    },
    respect_git_ignore: respectGitIgnore,
    type: {
      type: 'string',
      enum: ['file', 'directory', 'any'],
      description: '"file" (default): regular files. "directory": directories, matched by their path like files ("agent" finds src/agent). "any": every entry: files, directories, symlinks (listed, never followed) and special files (FIFOs, sockets, devices: listed, never opened).',
    },
    limit,
    sort: globSort,
  },
  required: ['pattern'],
  additionalProperties: false,
};

/** grepTool's input schema, to declare the tool to a model: every call is checked against it (`GrepInput`). */
export const GREP_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Find lines of text in files. Answers "path:line:column: text".',
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      description: 'The text to find, taken literally unless regex is true. Case is ignored unless the query holds a capital letter.',
    },
    include: {
      type: 'string',
      minLength: 1,
      description: 'Only search files whose path matches this glob, for example "*.ts" or "src/**/*.py".',
    },
    path: grepPath,
    case_sensitive: {
      type: 'boolean',
      description: 'true: match the text with case; false: ignore case. Default: ignore case unless the query holds a capital letter.',
    },
    respect_git_ignore: respectGitIgnore,
    limit,
    regex: { type: 'boolean', description: 'Treat query as a regular expression. Default false.' },
    output_mode: {
      type: 'string',
      enum: ['content', 'files_with_matches', 'count'],
      description: '"content" (default): the matching lines. "files_with_matches": each file with a match, once. "count": each such file with its number of matching lines, as "path:N".',
    },
    max_matches_per_file: { type: 'integer', minimum: 1, description: 'At most this many matching lines per file (the rest of a file is counted, not listed). Default: no cap.' },
    context: contextLines('Lines to show before and after each matching line, as "path-line- text" (as rg -C). Default 0'),
    before: contextLines('Lines to show before each matching line; overrides context on that side. Default: context'),
    after: contextLines('Lines to show after each matching line; overrides context on that side. Default: context'),
    sort,
  },
  required: ['query'],
  additionalProperties: false,
};

/** What is wrong with `value`, one message per fault; empty when it fits. */
export function validate(schema: JsonSchema, value: unknown, at = 'input'): string[] {
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at} must be an object, got ${kindOf(value)}`];
      const record = value as Record<string, unknown>;
      const errors: string[] = [];
      const inherited = (name: string) => `${at}.${name} is inherited, not given: send it as a field of the input`;
      const required = new Set(schema.required ?? []);
      for (const name of required) {
        if (ownValue(record, name) === undefined) errors.push(record[name] === undefined ? `${at}.${name} is required` : inherited(name));
      }
      for (const name of Object.keys(schema.properties ?? {})) {
        if (!required.has(name) && !Object.hasOwn(record, name) && record[name] !== undefined) errors.push(inherited(name));
      }
      for (const [name, field] of Object.entries(record)) {
        const property = ownValue(schema.properties, name);
        if (property === undefined) {
          if (schema.additionalProperties === false) {
            const known = Object.keys(schema.properties ?? {}).map((k) => `"${k}"`).join(', ');
            errors.push(`${at}.${name} is not a known field (known: ${known})`);
          }
        } else if (field !== undefined) {
          errors.push(...validate(property, field, `${at}.${name}`));
        }
      }
      return errors;
    }
    case 'string':
      if (typeof value !== 'string') return [`${at} must be a string, got ${kindOf(value)}`];
      if (schema.minLength !== undefined && value.length < schema.minLength) return [`${at} must not be empty`];
      if (schema.enum !== undefined && !schema.enum.includes(value)) {
        return [`${at} must be one of ${schema.enum.map((e) => `"${e}"`).join(', ')}, got ${JSON.stringify(value)}`];
      }
      return [];
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return [`${at} must be a whole number, got ${kindOf(value)}`];
      if (schema.minimum !== undefined && value < schema.minimum) return [`${at} must be at least ${schema.minimum}, got ${value}`];
      return [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at} must be true or false, got ${kindOf(value)}`];
    default:
      // Unreachable for a schema checkSchema accepts; an answer, never a throw, for one it would not.
      return [`${at}: the schema has no type the validator knows`];
  }
}

/** `object[name]` when it is the object's own property; never a member of its prototype. */
function ownValue<T>(object: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return object !== undefined && Object.hasOwn(object, name) ? object[name] : undefined;
}

const KEYWORDS = new Set(['type', 'description', 'properties', 'required', 'additionalProperties', 'minLength', 'minimum', 'enum']);
const TYPES = new Set(['object', 'string', 'integer', 'boolean']);

/** Problems with a schema itself: a keyword `validate` does not know, or a malformed one. */
export function checkSchema(schema: JsonSchema, at = '#'): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(schema)) if (!KEYWORDS.has(key)) problems.push(`${at}: unsupported keyword "${key}"`);
  if (!TYPES.has(schema.type)) problems.push(`${at}: unsupported type ${JSON.stringify(schema.type)}`);
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) problems.push(`${at}: additionalProperties must be false`);
  for (const name of schema.required ?? []) {
    if (ownValue(schema.properties, name) === undefined) problems.push(`${at}: required "${name}" is not a property`);
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) problems.push(...checkSchema(property, `${at}/properties/${name}`));
  return problems;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}
