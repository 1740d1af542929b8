#!/usr/bin/env node
/**
 * `npm run test:busy`: the whole suite (`npm test`) on a busy machine. Two processes burn a core
 * each beside it (BUSY_BURNERS sets how many), as another job would on a shared 2-core CI machine;
 * a test whose verdict depends on the machine being idle (a wall-clock sleep, a timeout sized for
 * an idle machine) fails here. The burners are stopped however the run ends (exit, error, Ctrl-C);
 * the script exits with npm test's status and prints the wall time. Arguments after `--` go to
 * `npm test` (and so to vitest), e.g. `npm run test:busy -- test/cli`.
 */
import { spawn } from 'node:child_process';

const BURNERS = Number(process.env.BUSY_BURNERS ?? 2);
// A tight loop that never yields: one core each, for as long as it lives.
const BURN = 'for (;;) {}';

const burners = [];
for (let i = 0; i < BURNERS; i++) burners.push(spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' }));

function stopBurners() {
  for (const burner of burners) if (burner.exitCode === null && burner.signalCode === null) burner.kill('SIGKILL');
}
// Whatever ends this process ends the burners first: they would otherwise keep a core each forever.
process.on('exit', stopBurners);

// npm runs this script with npm_execpath set: run the same npm through node (no shell, and no
// `npm.cmd` lookup on Windows). Run directly, fall back to `npm` on the PATH.
const npmCli = process.env.npm_execpath;
const [command, args] = npmCli ? [process.execPath, [npmCli, 'test']] : ['npm', ['test']];
const extra = process.argv.slice(2);
const started = process.hrtime.bigint();
// Its own process group (POSIX), so a signal reaches the whole tree: npm, its shell, tsc, vitest
// and vitest's workers; killing npm alone would leave them running.
const ownGroup = process.platform !== 'win32';
const tests = spawn(command, extra.length > 0 ? [...args, '--', ...extra] : args, { stdio: 'inherit', detached: ownGroup });

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopBurners();
    try {
      if (ownGroup) process.kill(-tests.pid, signal);
      else tests.kill(signal);
    } catch {
      // Already gone: its 'close' ends this process.
    }
  });
}

tests.on('error', (error) => {
  console.error(`busy-test: could not start npm test: ${error.message}`);
  stopBurners();
  process.exit(1);
});
tests.on('close', (status, signal) => {
  stopBurners();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`busy-test: npm test ${signal ? `ended by ${signal}` : `exited ${status}`} after ${seconds.toFixed(1)} s with ${BURNERS} CPU burners beside it`);
  process.exit(status ?? 1);
});
