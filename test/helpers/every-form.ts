/**
 * One search through every form of the library (promise, sync, stream): they must agree, and the
 * promise form's result is returned for the test's own checks.
 */
import { expect } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindResult } from '../../src/index.js';

export async function findAll(make: () => FindOptions): Promise<FindResult> {
  const viaPromise = await findFiles(make());
  const viaSync = findFilesSync(make());
  const stream = findFilesStream(make());
  const streamed: string[] = [];
  for await (const path of stream) streamed.push(path);
  const viaStream = { matches: streamed.sort(), ...(await stream.summary) };
  expect(viaSync).toEqual(viaPromise);
  expect(viaStream).toEqual(viaPromise);
  return viaPromise;
}
