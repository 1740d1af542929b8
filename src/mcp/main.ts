/**
 * `find-file mcp` (and `find-file-mcp`): the MCP server on stdio. stdout carries protocol messages
 * and nothing else; everything else goes to stderr. Usage errors exit 2 before the server starts;
 * once it runs, it runs until the client closes stdin. docs/mcp.md is the contract.
 */
import { readFileSync } from 'node:fs';
import { resolvePath } from '../plan/read.js';
import yargs from 'yargs';
import { BACKEND_OPTIONS, type BackendOption } from '../options.js';
import { MAX_LIMIT } from '../agent/index.js';
import { isDirectory } from '../cli/args.js';
import { countOf, last } from '../cli/flags.js';
import { IndexPool } from '../watch/pool.js';
import { createServer, type McpSettings } from './server.js';
import { LineTransport } from './stdio.js';

interface McpArgs {
  root?: string[];
  timeBudgetMs?: number;
  maxResults?: number;
  maxDepth?: number;
  backend?: string;
  watch?: boolean;
}

const log = (line: string) => void process.stderr.write(line + '\n');

/** Parses `argv` (after `mcp`), starts the server, and resolves once it is connected. */
export async function main(argv: readonly string[]): Promise<void> {
  const args = parse(argv);
  // --watch: one watched index per search root, so a repeat glob reads nothing twice (docs/index.md).
  const pool = args.watch === true ? new IndexPool() : undefined;
  const context = { ...contextOf(args), ...(pool === undefined ? {} : { findFiles: pool.findFiles }) };
  const settings: McpSettings = { version: readVersion(), roots: readRoots(args.root ?? []), context, log };
  const server = createServer(settings);
  server.onclose = () => pool?.close();
  // The client gone: a write to its closed stdout or stderr fails (EPIPE), and nothing can reach it
  // any more, so the server ends. Before, each failed write was an uncaught error logged to stderr,
  // whose write failed in turn: an orphaned server spun on that at 60% of a core, for good.
  const gone = () => process.exit(0);
  process.stdout.on('error', gone);
  process.stderr.on('error', gone);
  // A bug that escapes a call must not kill the session: it is logged and the server goes on.
  process.on('uncaughtException', (error) => log(`find-file mcp: unexpected error: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (error) => log(`find-file mcp: unexpected rejection: ${String(error)}`));
  await server.connect(new LineTransport());
  const where = settings.roots.length > 0 ? settings.roots.join(', ') : "the client's roots (or the current directory)";
  log(`find-file mcp ${settings.version}: serving glob and grep over stdio for ${where}${pool === undefined ? '' : ', from watched indexes'}`);
}

function parse(argv: readonly string[]): McpArgs {
  // The command's count rule (digits only, the last value wins), within this server's bounds.
  const count = (flag: string, max = Number.MAX_SAFE_INTEGER, min = 0) => (value: string | string[]) => {
    const n = countOf(flag)(value);
    if (n < min || n > max) throw new Error(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(last(value))}`);
    return n;
  };
  return yargs([...argv])
    .scriptName('find-file mcp')
    .usage('Usage: $0 [--root DIR ...] [options]\n\nAn MCP server on stdio with the tools glob and grep (docs/mcp.md).')
    .option('root', { type: 'string', requiresArg: true, coerce: (v: string | string[]) => [v].flat(), describe: 'A workspace root; repeatable; the first is the primary [default: the client\'s roots, else the current directory]' })
    .option('time-budget-ms', { type: 'string', requiresArg: true, coerce: count('--time-budget-ms'), describe: 'Each search stops after N ms and says so [default: 10000]' })
    .option('max-results', { type: 'string', requiresArg: true, coerce: count('--max-results', MAX_LIMIT, 1), describe: `The most results one answer lists; the model cannot ask for more [default: ${MAX_LIMIT}]` })
    .option('max-depth', { type: 'string', requiresArg: true, coerce: count('--max-depth'), describe: 'How deep each search looks [default: unlimited]' })
    .option('backend', { type: 'string', requiresArg: true, choices: BACKEND_OPTIONS as unknown as string[], describe: 'Search engine [default: walker]' })
    .option('watch', { type: 'boolean', describe: 'Keep a watched index of each search root (Linux) and answer file searches from it: the same answers as a fresh walk, every change before a call seen by it; elsewhere, or where no watch can be set, a fresh walk (docs/index.md)' })
    .check((args: McpArgs) => {
      if (args.watch === true && args.backend !== undefined && args.backend !== 'walker') throw new Error(`--watch answers as the walker: it cannot go with --backend ${args.backend}`);
      return true;
    })
    .parserConfiguration({ 'strip-aliased': true, 'strip-dashed': true })
    .strict()
    .help()
    .version(false)
    .fail((message: string | undefined, error: Error | undefined) => {
      log(`find-file mcp: error: ${message ?? error?.message}`);
      process.exit(2);
    })
    .parseSync() as McpArgs;
}

/** Each --root, absolute, and an existing directory (else a usage error: the server would answer nothing useful). */
function readRoots(roots: readonly string[]): string[] {
  return roots.map((root) => {
    // As a search reads it (`..` after a link: the kernel's parent, plan/read.ts `resolvePath`).
    const absolute = resolvePath(root);
    if (!isDirectory(absolute)) {
      log(`find-file mcp: error: --root ${JSON.stringify(root)} is not a directory`);
      process.exit(2);
    }
    return absolute;
  });
}

function contextOf(args: McpArgs): McpSettings['context'] {
  return {
    ...(args.timeBudgetMs === undefined ? {} : { timeBudgetMs: args.timeBudgetMs }),
    ...(args.maxResults === undefined ? {} : { maxLimit: args.maxResults }),
    ...(args.maxDepth === undefined ? {} : { maxDepth: args.maxDepth }),
    ...(args.backend === undefined ? {} : { backend: args.backend as BackendOption }),
  };
}

/** package.json sits two levels above dist/mcp/ (a copy without a version says so). */
function readVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
}
