/**
 * Every form that answers a file search, for tests that run one case through all of them: the
 * promise (walker), sync and stream forms, and findFiles on ripgrep and on auto. The stream's
 * matches come in discovery order; they are sorted here so that every form is compared alike.
 */
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindResult } from '../../src/index.js';

export type SearchForm = (options: FindOptions) => Promise<FindResult>;

export function searchForms(rgPath: string | undefined): [string, SearchForm][] {
  return [
    ['walker', (o) => findFiles(o)],
    ['sync', async (o) => findFilesSync(o)],
    ['stream', async (o) => {
      const stream = findFilesStream(o);
      const matches: string[] = [];
      for await (const m of stream) matches.push(m);
      return { ...(await stream.summary), matches: matches.sort() };
    }],
    ['ripgrep', (o) => findFiles({ ...o, backend: 'ripgrep', rgPath })],
    ['auto', (o) => findFiles({ ...o, backend: 'auto', rgPath })],
  ];
}
