/**
 * The workspace roots of the MCP server. The user's `--root` flags win: when given, they are the
 * roots, whatever the client says. Without them, the client's MCP roots (`roots/list`, asked once
 * the session is initialized and again on each `notifications/roots/list_changed`), as absolute
 * paths from their `file://` URIs; without either, the server's current directory.
 *
 * A call waits for the roots being read, so it never runs against roots about to change, and never
 * against the server's current directory in place of roots the client offers (an adversarial run:
 * `notifications/initialized` sent right behind `initialize` found no capabilities yet, the roots
 * were never asked, and every call answered "No files ... (search complete)" about the wrong
 * folder; a call sent before `initialized` did the same). The wait is bounded (`ROOTS_WAIT_MS`,
 * or the call's budget when shorter): a client that offers roots and does not answer `roots/list`
 * gets an error it can act on, not a 60 s wait (the SDK's request timeout) and then a search of
 * somewhere else.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** How long a call waits for the client's roots at most (a `roots/list` round trip is milliseconds). */
export const ROOTS_WAIT_MS = 5_000;

/** A call made while the client's roots are not known: it fails with this message, no search made. */
export class RootsUnknown extends Error {}

export class WorkspaceRoots {
  private roots: string[];
  private pending: Promise<void> | undefined;
  private initialized = false;
  /** The first `initialized` resolves it: a call that came before waits for it. */
  private readonly ready: Promise<void>;
  private markReady: () => void = () => {};

  constructor(
    private readonly server: Server,
    private readonly fixed: readonly string[],
    private readonly log: (line: string) => void,
  ) {
    this.roots = fixed.length > 0 ? [...fixed] : [process.cwd()];
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Called once the client has initialized: reads its roots when it offers them and no --root was given. */
  start(): void {
    this.initialized = true;
    this.markReady();
    this.readIfOffered();
    // `initialized` heard right behind `initialize` comes before its handler stored the capabilities.
    setImmediate(() => this.readIfOffered());
  }

  /** The roots for a call, the primary first; `waitMs` bounds the wait for the client's (the call's budget). */
  async current(waitMs = ROOTS_WAIT_MS): Promise<string[]> {
    if (this.fixed.length > 0) return this.roots;
    // The capabilities come with `initialize`, which may be handled after `initialized` is heard.
    this.readIfOffered();
    if (this.pending === undefined && !(this.offersRoots() && !this.initialized)) return this.roots;
    const bound = Math.min(waitMs, ROOTS_WAIT_MS);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), bound)));
    // Before `initialized` the server may not ask (the protocol): wait for it, then for the answer.
    const read = (async () => {
      await this.ready;
      this.readIfOffered();
      await this.pending;
    })();
    try {
      if ((await Promise.race([read, late])) === 'late') {
        throw new RootsUnknown(`the client's workspace roots are not known yet (roots/list not answered within ${bound} ms): no search was made; call again, or start the server with --root`);
      }
    } finally {
      clearTimeout(timer);
    }
    return this.roots;
  }

  private offersRoots(): boolean {
    return this.server.getClientCapabilities()?.roots !== undefined;
  }

  /** Starts reading the roots once: after `initialized`, when the client offers them, without --root. */
  private readIfOffered(): void {
    if (this.pending !== undefined || !this.initialized || this.fixed.length > 0 || !this.offersRoots()) return;
    this.pending = this.refresh();
    this.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.pending = this.refresh();
    });
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
