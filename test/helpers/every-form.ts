/**
 * One search through every form of the library (promise, sync, stream, and the promise and the stream
 * as the command reads them: on the main thread): they must agree, and the
 * promise form's result is returned for the test's own checks.
 */
import { expect } from 'vitest';
import { findFilesWith, streamFiles } from '../../src/find.js';
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindResult, type FindStream } from '../../src/index.js';

export async function findAll(make: () => FindOptions): Promise<FindResult> {
  const viaPromise = await findFiles(make());
  const viaSync = findFilesSync(make());
  const viaStream = await readStream(findFilesStream(make()));
  // The command's listing: the same stream with the sync walk's reads on this thread, in slices.
  const viaMainThread = await readStream(streamFiles(make(), 'main-thread'));
  const viaMainThreadPromise = await findFilesWith(make(), 'main-thread');
  expect(viaSync).toEqual(viaPromise);
  expect(viaStream).toEqual(viaPromise);
  expect(viaMainThread).toEqual(viaPromise);
  expect(viaMainThreadPromise).toEqual(viaPromise);
  return viaPromise;
}

async function readStream(stream: FindStream): Promise<FindResult> {
  const streamed: string[] = [];
  for await (const path of stream) streamed.push(path);
  return { matches: streamed.sort(), ...(await stream.summary) };
}
