/**
 * Links node-glob's adapter returns by their own path (`ldir` for `*`, `**`, `ldir/**`): the walk
 * lists a link and never enters it, and the walker leaves a link it returned out of
 * `linksOnTheWay`, since its own answer says it is a link. node-glob's strings do not, and node-glob
 * itself does enter a literal path through a link (`ldir/**` gives what is below), so a returned
 * link that a pattern goes below, and that leads to a directory, is named in `linksOnTheWay`: the
 * empty place below it is never read as "nothing there" (an adversarial run: `ldir/**` gave
 * `['ldir']`, and nothing said that `ldir/g.js` was never looked for).
 */
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FindResult, FindSummary } from '../result.js';

/** What the walk's listings told of links, and the test of whether a pattern goes below a path. */
export interface LinkNotes {
  /** Root-relative `/` paths of the links the walk listed (a `DT_UNKNOWN` entry is not among them). */
  links: Set<string>;
  /** Whether a pattern could match something below this root-relative path. */
  entered: (rel: string) => boolean;
  /** A match as returned in `result.matches`, to its root-relative `/` path. */
  rel: (match: string) => string;
  root: string;
}

/** The returned links that a pattern goes below: candidates for `linksOnTheWay`, before the stat that says where each leads. */
function candidates(result: FindSummary, notes: LinkNotes, matches: readonly string[]): string[] {
  if (notes.links.size === 0) return [];
  const named = new Set(result.linksOnTheWay);
  return matches.filter((m) => !named.has(m) && notes.links.has(notes.rel(m)) && notes.entered(notes.rel(m)));
}

function withNamed<T extends FindSummary>(result: T, added: string[]): T {
  if (added.length === 0) return result;
  return { ...result, linksOnTheWay: [...result.linksOnTheWay, ...added].sort(), linkOnTheWayCount: result.linkOnTheWayCount + added.length };
}

/** The result with the returned links a pattern goes below, and that lead to a directory, named in `linksOnTheWay`. */
export function nameLinksEntered(result: FindResult, notes: LinkNotes): FindResult {
  const added = candidates(result, notes, result.matches).filter((m) => {
    try {
      return statSync(join(notes.root, notes.rel(m))).isDirectory();
    } catch (error) {
      return leadsSomewhere(error);
    }
  });
  return withNamed(result, added);
}

/** As the walker reads a failed stat of a link (docs/contract.md): dangling, a loop or through a file leads nowhere; any other error names it. */
function leadsSomewhere(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code !== 'ENOENT' && code !== 'ELOOP' && code !== 'ENOTDIR';
}

/**
 * `nameLinksEntered` without blocking. `matches`: the walk's matches, or (a streamed walk, whose
 * summary holds none) at least every one that is a listed link.
 */
export async function nameLinksEnteredAsync<T extends FindSummary>(result: T, notes: LinkNotes, matches: readonly string[]): Promise<T> {
  const found = candidates(result, notes, matches);
  const leads = await Promise.all(found.map((m) => stat(join(notes.root, notes.rel(m))).then((s) => s.isDirectory(), leadsSomewhere)));
  return withNamed(result, found.filter((_, i) => leads[i]));
}
