/**
 * The MCP server: the agent tools `glob` and `grep` over the Model Context Protocol (the official
 * SDK's low-level `Server`, so the tools keep their own JSON Schemas). docs/mcp.md is the contract.
 *
 * - `tools/list`: the two tools, their input schemas as `inputSchema`, one `outputSchema` for the
 *   `structuredContent` (structured.ts) that carries the answer's contract beside the text.
 * - `tools/call`: the text is the agent tools' own (`content`), unchanged. A call the tools refuse
 *   (bad input, a path outside every root) is an `isError` answer; so is anything that throws: a
 *   crash in one call never takes the server down.
 * - Cancellation: the client's `notifications/cancelled` aborts the search through its signal, and
 *   the answer is the tools' honest "cancelled" one.
 * - Progress: with a `progressToken`, `notifications/progress` every `PROGRESS_EVERY_MS` while the
 *   search runs, counting the directories read.
 * - Roots: roots.ts.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GLOB_INPUT_SCHEMA, GREP_INPUT_SCHEMA, globTool, grepTool, type ToolContext } from '../agent/index.js';
import { FindFileError } from '../errors.js';
import { shortMessage } from '../text-escape.js';
import { RootsUnknown, WorkspaceRoots } from './roots.js';
import { OUTPUT_SCHEMA, structuredAnswer } from './structured.js';

/** What the command line (or an embedding host) fixes for every call. */
export interface McpSettings {
  /** The version the server reports. */
  version: string;
  /** Workspace roots, absolute; none: the client's roots, or else the current directory. */
  roots: string[];
  /** The rest of every call's tool context (time budget, page cap, backend...). */
  context: Omit<ToolContext, 'root' | 'roots' | 'signal' | 'onDirectory'>;
  /** Where the server writes what it has to say outside the protocol (stderr). */
  log(line: string): void;
}

/** How often a long search reports progress, at most. */
export const PROGRESS_EVERY_MS = 250;

const TOOLS = [
  { name: 'glob', run: globTool, inputSchema: GLOB_INPUT_SCHEMA, title: 'Find files by name' },
  { name: 'grep', run: grepTool, inputSchema: GREP_INPUT_SCHEMA, title: 'Find lines of text in files' },
] as const;

export function createServer(settings: McpSettings): Server {
  const server = new Server({ name: 'find-file', version: settings.version }, { capabilities: { tools: {} } });
  const roots = new WorkspaceRoots(server, settings.roots, settings.log);
  server.oninitialized = () => roots.start();
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map(({ name, title, inputSchema }) => ({
      name,
      title,
      description: inputSchema.description ?? title,
      inputSchema: inputSchema as { type: 'object' },
      outputSchema: OUTPUT_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (tool === undefined) return failure(`unknown tool ${JSON.stringify(request.params.name)}: this server has glob and grep`);
    const progress = startProgress(request.params._meta?.progressToken, (params) => extra.sendNotification({ method: 'notifications/progress', params }));
    try {
      const [root, ...more] = await roots.current(settings.context.timeBudgetMs);
      const ctx: ToolContext = { ...settings.context, root: root!, roots: more, signal: extra.signal, ...(progress === undefined ? {} : { onDirectory: progress.onDirectory }) };
      const answer = await tool.run(request.params.arguments ?? {}, ctx);
      // The client will not read this answer (it cancelled): say on stderr how the search ended.
      if (extra.signal.aborted) settings.log(`find-file mcp: ${tool.name} cancelled by the client: ${answer.summary}`);
      return { content: [{ type: 'text', text: answer.content }], structuredContent: { ...structuredAnswer(answer) }, isError: answer.isError };
    } catch (error) {
      // A host setting the library refused, or a bug: this call fails, the server goes on.
      settings.log(`find-file mcp: ${tool.name} failed: ${shortMessage(error instanceof Error ? (error.stack ?? error.message) : String(error))}`);
      if (error instanceof FindFileError || error instanceof RootsUnknown) return failure(`${tool.name} could not run: ${shortMessage(error.message)}`);
      return failure(`${tool.name} failed with an internal error (the server logged it): ${shortMessage(String(error))}`);
    } finally {
      progress?.stop();
    }
  });
  return server;
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

type ProgressParams = { progressToken: string | number; progress: number; message: string };

/** Progress for one call, when the client asked for it: directories read, sent at most every PROGRESS_EVERY_MS. */
function startProgress(token: string | number | undefined, send: (params: ProgressParams) => Promise<void>) {
  if (token === undefined) return undefined;
  let dirs = 0;
  let sent = 0;
  const timer = setInterval(() => {
    if (dirs === sent) return;
    sent = dirs;
    // A client that went away must not crash the server: the call's own answer says what happened.
    send({ progressToken: token, progress: dirs, message: `${dirs} directories read` }).catch(() => {});
  }, PROGRESS_EVERY_MS);
  timer.unref();
  return {
    onDirectory: () => {
      dirs++;
    },
    stop: () => clearInterval(timer),
  };
}
