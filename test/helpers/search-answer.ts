/** What the ripgrep hardening tests keep of one search's answer (a form and engine's name, and its verdict). */
export interface SearchAnswer {
  name: string;
  backend: string;
  matches: string[];
  skipped: { path: string; code: string }[];
  complete: boolean;
  incompleteReasons: string[];
  fallbackReason?: string;
}
