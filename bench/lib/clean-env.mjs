/**
 * The environment the measured processes start with, imported first by every suite that times
 * processes. NODE_EXTRA_CA_CERTS makes Node read a certificate bundle at every start, TLS or not:
 * with the system bundle (as this project's machines set it) `node -e 0` took 124 ms of CPU
 * against 68 ms without. That constant, added to find-file and to every Node floor alike, hid
 * part of the ratio between them, and a user's shell seldom sets it. FF_BENCH_KEEP_ENV=1 keeps it.
 */
const caCerts = process.env.NODE_EXTRA_CA_CERTS;
if (process.env.FF_BENCH_KEEP_ENV !== '1') delete process.env.NODE_EXTRA_CA_CERTS;

/** For npm, which may ask the registry (the fixtures' `npm ci`): the environment with the bundle back. */
export function npmEnv() {
  return caCerts === undefined ? process.env : { ...process.env, NODE_EXTRA_CA_CERTS: caCerts };
}
