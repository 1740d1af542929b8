/**
 * The workspace roots of the MCP server. The user's `--root` flags win: when given, they are the
 * roots, whatever the client says. Without them, the client's MCP roots (`roots/list`, asked once
 * the session is initialized and again on each `notifications/roots/list_changed`), as absolute
 * paths from their `file://` URIs; without either, the server's current directory. A call waits
 * for the first answer to `roots/list`, so it never runs against roots about to change.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export class WorkspaceRoots {
  private roots: string[];
  private pending: Promise<void> | undefined;

  constructor(
    private readonly server: Server,
    private readonly fixed: readonly string[],
    private readonly log: (line: string) => void,
  ) {
    this.roots = fixed.length > 0 ? [...fixed] : [process.cwd()];
  }

  /** Called once the client has initialized: reads its roots when it offers them and no --root was given. */
  start(): void {
    if (this.fixed.length > 0 || this.server.getClientCapabilities()?.roots === undefined) return;
    this.pending = this.refresh();
    this.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.pending = this.refresh();
    });
  }

  /** The roots for a call, the primary first. */
  async current(): Promise<string[]> {
    await this.pending;
    return this.roots;
  }

  private async refresh(): Promise<void> {
    try {
      const { roots } = await this.server.listRoots();
      const paths: string[] = [];
      for (const root of roots) {
        const path = pathOf(root.uri);
        if (path === undefined) this.log(`find-file mcp: root ${root.uri} is not a file:// URI: not searched`);
        else paths.push(path);
      }
      // A client that lists no usable root leaves the server where it started.
      this.roots = paths.length > 0 ? paths : [process.cwd()];
    } catch (error) {
      this.log(`find-file mcp: the client's roots could not be read (${error instanceof Error ? error.message : String(error)}): keeping ${this.roots.join(', ')}`);
    }
  }
}

function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
