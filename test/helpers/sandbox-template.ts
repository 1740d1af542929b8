/**
 * vitest globalSetup: one folder per run for the compiled copy that the unprivileged tests' sandboxes
 * start from (test/helpers/unprivileged.ts compiles into it on first use, so a run that builds no
 * sandbox pays nothing). Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder test/helpers/unprivileged.ts compiles the sources into once per run. */
    sandboxTemplate: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'ff-nobody-template-'));
  project.provide('sandboxTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
