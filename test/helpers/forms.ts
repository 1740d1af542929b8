/**
 * Every form that answers a file search, for tests that run one case through all of them: the
 * promise (walker), sync and stream forms (the stream also as the command reads it, on the main
 * thread), and findFiles on ripgrep and on auto. The stream's
 * matches come in discovery order; they are sorted here so that every form is compared alike.
 */
import { streamFiles } from '../../src/find.js';
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindResult, type FindStream } from '../../src/index.js';

export type SearchForm = (options: FindOptions) => Promise<FindResult>;

export function searchForms(rgPath: string | undefined): [string, SearchForm][] {
  return [
    ['walker', (o) => findFiles(o)],
    ['sync', async (o) => findFilesSync(o)],
    ['stream', (o) => readStream(findFilesStream(o))],
    // The command's listing: the stream with the sync walk's reads on the main thread, in slices.
    ['stream, main thread', (o) => readStream(streamFiles(o, 'main-thread'))],
    ['ripgrep', (o) => findFiles({ ...o, backend: 'ripgrep', rgPath })],
    ['auto', (o) => findFiles({ ...o, backend: 'auto', rgPath })],
  ];
}

async function readStream(stream: FindStream): Promise<FindResult> {
  const matches: string[] = [];
  for await (const m of stream) matches.push(m);
  return { ...(await stream.summary), matches: matches.sort() };
}
