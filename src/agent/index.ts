/**
 * find-file/agent: glob and grep tools for function-calling agents, answering in text a model
 * cannot misread. See docs/agent.md.
 */
export { globTool, type GlobInput, type GlobMetadata, type GlobGuidance, type GlobToolResult } from './glob.js';
export { grepTool, GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_BYTES, type GrepInput, type GrepMetadata, type GrepGuidance, type GrepToolResult } from './grep.js';
export type { ResultMetadata } from './tool.js';
export { GLOB_INPUT_SCHEMA, GREP_INPUT_SCHEMA, validate, checkSchema, type JsonSchema } from './schema.js';
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  DEFAULT_COUNT_CAP,
  DEFAULT_TIME_BUDGET_MS,
  DEFAULT_EXCLUDE,
  type ToolContext,
  type ToolResult,
  type SortOrder,
} from './context.js';
export type { ErrorMetadata } from './answer.js';
export type { Total, Policy } from './text.js';
export type { Overview, SimilarNames, Attempt } from './text-guidance.js';
// How `content` shows text from the disk (docs/agent.md, "Untrusted text"), for a host that shows `metadata` too.
export { escapeText, unescapeText } from '../text-escape.js';
