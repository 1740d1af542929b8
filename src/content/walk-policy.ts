/**
 * The walk a content search runs over its file set, in every engine (one-thread.ts, file-queue.ts)
 * and in `auto`'s listing walk (links.ts): no match limit of its own (`maxResults` counts hits), a
 * link never a result (its content is not searched: named, links.ts and MatchTaker), and the special
 * files its patterns match (FIFOs, sockets, devices: never opened, a FIFO's open blocks) collected
 * here, so the answer names them: an adversarial run had `--contains ERROR app.log`, app.log a
 * FIFO, answer "every file matching 'app.log' was searched, and the text does not occur in them".
 */
import { MAX_LINK_MATCHES } from '../result.js';
import type { MatchPolicy } from '../walk/rules.js';
import type { ContentSummary } from './types.js';

/** The special files a walk met whose paths the patterns match: counted, the first `MAX_LINK_MATCHES` named. */
export class SpecialFiles {
  private count = 0;
  private readonly paths: string[] = [];

  readonly add = (rel: string): void => {
    this.count++;
    if (this.paths.length < MAX_LINK_MATCHES) this.paths.push(rel);
  };

  fields(): Pick<ContentSummary, 'specialMatches' | 'specialMatchedCount'> {
    return { specialMatches: [...this.paths].sort(), specialMatchedCount: this.count };
  }
}

export function contentWalkPolicy(specials: SpecialFiles): MatchPolicy {
  return { maxMatches: Infinity, atLimit: 'stop', withMeta: false, linksAreNotResults: true, onSpecialMatch: specials.add };
}
