// The system under test, run in a child process of its own so that a pattern that hangs find-file
// (an endless loop in the glob compiler, a catastrophic regex) is a reported disagreement, not a
// hung test run: the suite gives each case a deadline and kills the child when it is missed
// (test/conformance/sut.ts). Plain JS: the child gets no TypeScript transform, so the module under
// test is a build (dist/lib/index.js, the shipped bundle, by default), named by the first argument.
const api = await import(process.argv[2]);

function failure(error) {
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'FF_INVALID_PATTERN' || code === 'FF_PATTERN_OUTSIDE_ROOT') return { kind: 'refused', code, message };
  return { kind: 'error', message: code === undefined ? message : `${code}: ${message}` };
}

const answer = (r, matches) => ({ kind: 'result', matches, complete: r.complete, reasons: r.incompleteReasons });

async function run(mode, options) {
  try {
    if (mode === 'async') {
      const r = await api.findFiles(options);
      return answer(r, r.matches);
    }
    if (mode === 'ripgrep' || mode === 'auto') {
      const r = await api.findFiles({ ...options, backend: mode });
      return answer(r, r.matches);
    }
    if (mode === 'sync') {
      const r = api.findFilesSync(options);
      return answer(r, r.matches);
    }
    const stream = api.findFilesStream(options);
    const matches = [];
    for await (const path of stream) matches.push(path);
    // Discovery order: sorted here the way findFiles sorts (UTF-16 code units).
    return answer(await stream.summary, matches.sort());
  } catch (error) {
    return failure(error);
  }
}

process.on('message', async ({ id, root, pattern, nocase, modes }) => {
  const options = { root, pattern, ...(nocase ? { caseSensitive: false } : {}) };
  const answers = {};
  for (const mode of modes) answers[mode] = await run(mode, options);
  process.send({ id, answers });
});
// The suite ending (or killing the runner) closes the channel: nothing is left running.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
