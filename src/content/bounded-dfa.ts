/**
 * re2js's lazy DFA asked "is there a match?" with its work bounded, for `Re2Matcher` (query.ts).
 *
 * `RE2JS.test` runs the DFA and, when the DFA gives up (its 8 MiB state cache refilled too fast:
 * `[ab]*a[ab]{1000}c` over a line of random `a`/`b`), falls back to the NFA over the whole text in
 * the same call, with no bound: an adversarial run waited 16 s past a 400 ms budget. And the DFA
 * alone is not the 150 ns a character of its cached steps: each new state costs a closure over the
 * program (filling its cache twice before giving up took 0.45-0.8 s, whatever the line's length).
 *
 * So this DFA runs alone, and pays for each state it builds: its own `match` and `makeState` are
 * wrapped on this regex's DFA (re2js declares both in its types). A give-up throws instead of falling
 * back, and a state that passes the call's allowance throws too: either way the answer is "cannot
 * say", and the caller measures or refuses as for any costly line. With a re2js whose DFA lacks these
 * methods, the DFA is never asked (slower answers, never unbounded ones): test/content/bounded-dfa.test.ts
 * checks the hooks hold on the installed version.
 */
import type { RE2JS } from 're2js';

/** The DFA's cost of one character over cached states, ns (measured at most ~130 under load). */
export const DFA_NS_PER_CHAR = 150;
/**
 * A state built, ns: a fixed part plus its NFA states. Measured on this project's machine under load:
 * ~38 µs a state of 26 instructions (`[ab]*a[ab]{20}c`), ~220 µs of ~1,000 (`[ab]*a[ab]{1000}c`).
 */
export const DFA_NS_PER_STATE = 40_000;
export const DFA_NS_PER_STATE_INSTRUCTION = 250;

/** Thrown from inside re2js's DFA: the call ends there, before any fallback. */
const GAVE_UP = new Error('the DFA gave up');

interface DfaHooks {
  match(input: unknown, pos: number, anchor: number): boolean | null;
  makeState(pcs: unknown, flag: number, ids: unknown): { nfaStates: unknown[] } | null;
}

export class BoundedDfa {
  /** ns the current call may still spend building states. */
  private allowance = 0;
  private readonly hooked: boolean;

  constructor(private readonly regex: RE2JS) {
    this.hooked = this.hook();
  }

  /**
   * True or false: whether `text` holds a match. Undefined: the DFA could not say within `ms` (its
   * characters' cost alone would pass it, its states did, or it gave up), or cannot be bounded here.
   */
  test(text: string, ms: number): boolean | undefined {
    this.allowance = ms * 1e6 - text.length * DFA_NS_PER_CHAR;
    if (!this.hooked || this.allowance < 0) return undefined;
    try {
      return this.regex.test(text);
    } catch (error) {
      if (error === GAVE_UP) return undefined;
      throw error;
    }
  }

  private hook(): boolean {
    const dfa = (this.regex.re2Input as { dfa?: Partial<DfaHooks> } | undefined)?.dfa;
    const { match, makeState } = dfa ?? {};
    if (dfa === undefined || typeof match !== 'function' || typeof makeState !== 'function') return false;
    dfa.match = (input, pos, anchor) => {
      const found = match.call(dfa, input, pos, anchor);
      if (found === null) throw GAVE_UP;
      return found;
    };
    dfa.makeState = (pcs, flag, ids) => {
      const state = makeState.call(dfa, pcs, flag, ids);
      // Charged after it is built (its closure is known then): one state past the allowance at most.
      const cost = DFA_NS_PER_STATE + (state?.nfaStates.length ?? 0) * DFA_NS_PER_STATE_INSTRUCTION;
      this.allowance -= cost;
      if (this.allowance < 0) throw GAVE_UP;
      return state;
    };
    return true;
  }
}
