/*
 * Prints glibc's answer to each POSIX character class for every Unicode scalar value, as bash asks
 * it in a UTF-8 locale (lib/glob/smatch.c `is_wcclass`): iswctype(wc, wctype(name)), `word` as
 * alnum or `_`, and `ascii` as bash falls back to when wctype("ascii") is unknown (wctob <= 0x7F).
 * Run by scripts/posix-classes/generate.mjs; its output is not meant for people.
 *
 * Output, one line each:
 *   glibc <version>
 *   locale <LC_CTYPE name>
 *   class <name> <lo>-<hi> <lo>-<hi> ...     (hexadecimal, inclusive, ascending)
 */
#include <gnu/libc-version.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static const char *const NAMES[] = {
  "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
  "lower", "print", "punct", "space", "upper", "word", "xdigit",
};

static int is_in_class(const char *name, wint_t wc) {
  if (strcmp(name, "word") == 0) return iswalnum(wc) || wc == L'_';
  wctype_t desc = wctype(name);
  if (desc != 0) return iswctype(wc, desc) != 0;
  if (strcmp(name, "ascii") == 0) {
    int c = wctob(wc);
    return c != EOF && c <= 0x7F;
  }
  fprintf(stderr, "classes: glibc knows no class named %s\n", name);
  exit(2);
}

static void print_class(const char *name) {
  printf("class %s", name);
  long lo = -1;
  for (long cp = 0; cp <= 0x110000; cp++) {
    int in = cp < 0x110000 && !(cp >= 0xD800 && cp <= 0xDFFF) && is_in_class(name, (wint_t)cp);
    /* Surrogates are not characters: a range never spans them, so the table never claims them. */
    if (in && lo < 0) lo = cp;
    if (!in && lo >= 0) {
      printf(" %lx-%lx", lo, cp - 1);
      lo = -1;
    }
  }
  printf("\n");
}

int main(void) {
  const char *locale = setlocale(LC_ALL, "C.UTF-8");
  if (locale == NULL) {
    fprintf(stderr, "classes: the C.UTF-8 locale is not available\n");
    return 2;
  }
  printf("glibc %s\n", gnu_get_libc_version());
  printf("locale %s\n", setlocale(LC_CTYPE, NULL));
  for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) print_class(NAMES[i]);
  return ferror(stdout) ? 1 : 0;
}
