/**
 * What an MCP client reads beside the text (`structuredContent`), and the JSON Schema it is checked
 * against (`outputSchema`): the contract of the answer (complete, why not, truncated, counts, what
 * was skipped) and the page itself. The text a model reads stays the agent tools' own wording
 * (src/agent/text.ts): one source for both.
 */
import type { GlobToolResult, GrepToolResult } from '../agent/index.js';

/** The JSON Schema subset the output schema uses (the input schemas' `Schema`, plus arrays). */
interface Schema {
  type: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: string[];
  minimum?: number;
}

/** How many skipped paths the structured answer names (all are counted). */
export const SKIPPED_EXAMPLES = 20;

export interface StructuredAnswer {
  tool: 'glob' | 'grep';
  /** False for a refused or failed call: then only `error` says more. */
  ok: boolean;
  error?: { code: string; message: string };
  complete?: boolean;
  incompleteReasons?: string[];
  truncated?: boolean;
  returned?: number;
  total?: { count: number; kind: string };
  searchRoot?: string;
  skipped?: { count: number; paths: { path: string; code: string }[] };
  policy?: { excluded: number; symlinksNotFollowed: number; ignored?: number; binarySkipped?: number };
  paths?: string[];
  /**
   * Symlinked directories the glob pattern (grep: the search) would have descended into, never followed (the result's
   * `linksOnTheWay`, workspace-relative; `count` counts them all). Absent when the engine could not
   * see links (ripgrep).
   */
  linksOnTheWay?: { count: number; paths: string[] };
  hits?: { path: string; line: number; column: number; text: string }[];
  /** `atLeast`: the search stopped inside the file, the count is a lower bound. */
  files?: { path: string; count: number; atLeast?: true }[];
}

const count: Schema = { type: 'integer', minimum: 0 };
const text: Schema = { type: 'string' };
const flag: Schema = { type: 'boolean' };
const texts: Schema = { type: 'array', items: text };

/** One schema for both tools: the fields a tool does not give are absent. */
export const OUTPUT_SCHEMA: Schema & { type: 'object' } = {
  type: 'object',
  properties: {
    tool: { type: 'string', enum: ['glob', 'grep'] },
    ok: flag,
    error: { type: 'object', properties: { code: text, message: text }, required: ['code', 'message'] },
    complete: flag,
    incompleteReasons: texts,
    truncated: flag,
    returned: count,
    total: { type: 'object', properties: { count, kind: { type: 'string', enum: ['exact', 'at-least', 'more-than'] } }, required: ['count', 'kind'] },
    searchRoot: text,
    skipped: {
      type: 'object',
      properties: { count, paths: { type: 'array', items: { type: 'object', properties: { path: text, code: text }, required: ['path', 'code'] } } },
      required: ['count', 'paths'],
    },
    policy: { type: 'object', properties: { excluded: count, symlinksNotFollowed: count, ignored: count, binarySkipped: count }, required: ['excluded', 'symlinksNotFollowed'] },
    paths: texts,
    linksOnTheWay: { type: 'object', properties: { count, paths: texts }, required: ['count', 'paths'] },
    hits: {
      type: 'array',
      items: { type: 'object', properties: { path: text, line: count, column: count, text }, required: ['path', 'line', 'column', 'text'] },
    },
    files: { type: 'array', items: { type: 'object', properties: { path: text, count, atLeast: { type: 'boolean' } }, required: ['path', 'count'] } },
  },
  required: ['tool', 'ok'],
};

/** The structured form of a tool's answer. */
export function structuredAnswer(answer: GlobToolResult | GrepToolResult): StructuredAnswer {
  const { metadata } = answer;
  if ('error' in metadata) return { tool: metadata.tool, ok: false, error: metadata.error };
  const { result, policy } = metadata;
  const structured: StructuredAnswer = {
    tool: metadata.tool,
    ok: true,
    complete: metadata.complete,
    incompleteReasons: [...result.incompleteReasons],
    truncated: metadata.truncated,
    returned: metadata.returned,
    total: metadata.total,
    searchRoot: metadata.searchRoot,
    skipped: { count: result.skippedCount, paths: result.skipped.slice(0, SKIPPED_EXAMPLES) },
    policy: {
      excluded: policy.excludedCount,
      symlinksNotFollowed: policy.symlinkSkipped,
      ...(policy.ignored?.counted ? { ignored: policy.ignored.count } : {}),
      // Only a count that counts: ripgrep's is a lower bound (the text answer says so), as with `ignored`.
      ...(policy.binarySkipped === undefined || policy.binaryCounted === false ? {} : { binarySkipped: policy.binarySkipped }),
    },
  };
  // glob and grep alike: a complete empty answer proves absence only outside these.
  const links = policy.links;
  const onTheWay = links?.examined === true && links.onTheWay !== undefined ? { linksOnTheWay: { count: links.onTheWay.count, paths: [...links.onTheWay.paths] } } : {};
  if (metadata.tool === 'glob') return { ...structured, paths: metadata.paths, ...onTheWay };
  if (metadata.files !== undefined) return { ...structured, files: metadata.files, ...onTheWay };
  return { ...structured, hits: metadata.hits.map(({ path, line, column, text }) => ({ path, line, column, text })), ...onTheWay };
}
