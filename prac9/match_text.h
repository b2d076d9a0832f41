/*
 * match_text.h -- the texts and words of practical 9's programs (match, match_ladder, match_any), read on the
 * host: a whole file, the default text (match.cu beside the program), and a -words= list. Host code only.
 */
#ifndef PRAC9_MATCH_TEXT_H
#define PRAC9_MATCH_TEXT_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "prac9_gold.h"

#define MATCH_MAX_LENGTH 2147483647LL // bytes of text at most: every count fits the course's int

// the whole file: NULL, with the reason in why, when it cannot be read or is over MATCH_MAX_LENGTH bytes
static inline unsigned char *read_text(const char *path, size_t *length, char *why, size_t nwhy) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(why, nwhy, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 65536, n = 0, got = 1;
  unsigned char *buf = (unsigned char *)malloc(cap);
  while (buf && got > 0) {
    if (n == cap) {
      if (cap > (size_t)MATCH_MAX_LENGTH) break;
      unsigned char *more = (unsigned char *)realloc(buf, 2 * cap);
      if (!more) free(buf);
      buf = more, cap *= 2;
      if (!buf) break;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  }
  const char *problem = !buf ? "out of host memory" : ferror(f) ? strerror(errno) : NULL;
  if (!problem && n > (size_t)MATCH_MAX_LENGTH) problem = "longer than 2147483647 bytes, the most this program takes";
  fclose(f);
  if (problem) {
    snprintf(why, nwhy, "cannot read %s: %s", path, problem);
    free(buf);
    return NULL;
  }
  *length = n;
  return buf;
}

// the default text, the course's: match.cu beside this binary (/proc/self/exe, else argv[0]), or one folder up
// for the starting file exercises/match. The current folder is not looked at: a program run from elsewhere
// would read another file, or none (the course's fopen("match.cu") crashes there).
static inline void default_source(char *path, size_t n, const char *argv0) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (len > 0)
    exe[len] = '\0';
  else
    snprintf(exe, sizeof(exe), "%s", strchr(argv0, '/') ? argv0 : "./match");
  *strrchr(exe, '/') = '\0'; // the binary's folder (exe holds a '/' either way)
  snprintf(path, n, "%s/match.cu", exe);
  if (access(path, R_OK) != 0) snprintf(path, n, "%s/../match.cu", exe);
}

// the text of -file=FILE or, without it, the default (default_source); one that cannot be read is bad input
static inline unsigned char *read_text_or_default(int file_given, const char *file, const char *argv0, char *path,
                                                  size_t npath, size_t *length) {
  char why[PATH_MAX + 128];
  if (file_given)
    snprintf(path, npath, "%s", file);
  else
    default_source(path, npath, argv0);
  unsigned char *text = read_text(path, length, why, sizeof(why));
  if (!text) args_fail("%s%s", why, file_given ? "" : " (the default text; give -file=)");
  return text;
}

// -words=w1,w2,...: each exactly 4 bytes, at most max of them; returns how many, each into words[4w..4w+3]
static inline int parse_words(const char *list, unsigned char *words, int max) {
  int nwords = 0;
  for (const char *p = list;; p++) { // p: the item after each comma
    size_t len = strcspn(p, ",");
    if (len != MATCH_WORD_BYTES)
      args_fail("-words=%s: '%.*s' is %zu bytes; every word is exactly 4", list, (int)(len < 40 ? len : 40), p, len);
    if (nwords == max) args_fail("-words=...: more than %d words", max);
    memcpy(words + MATCH_WORD_BYTES * nwords++, p, MATCH_WORD_BYTES);
    p += len;
    if (*p == '\0') return nwords;
  }
}

// GNU grep -F -c on the text, the words as a pattern file (match_ladder -bench, the CPU tool a user would reach
// for): its wall time in ms and, in *lines, its count, of lines that hold a word; -1 with the reason in why when
// it cannot run here
static inline double run_grep(const unsigned char *text, size_t length, const unsigned char *w, int nwords,
                              long long *lines, char *why, size_t nwhy) {
  for (int j = 0; j < 4 * nwords; j++)
    if (w[j] == '\n' || w[j] == '\0') return snprintf(why, nwhy, "a word holds a newline or a zero byte"), -1.0;
  if (system("grep -V > /dev/null 2>&1") != 0) return snprintf(why, nwhy, "no grep on this machine"), -1.0;
  const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char tf[PATH_MAX], pf[PATH_MAX], cmd[3 * PATH_MAX];
  snprintf(tf, sizeof(tf), "%s/match_ladder_text_XXXXXX", dir),
      snprintf(pf, sizeof(pf), "%s/match_ladder_words_XXXXXX", dir);
  int ft = mkstemp(tf), fp = ft < 0 ? -1 : mkstemp(pf);
  if (ft < 0 || fp < 0) return snprintf(why, nwhy, "cannot make a file in %s", dir), -1.0;
  int ok = write(ft, text, length) == (ssize_t)length;
  for (int j = 0; j < nwords && ok; j++) ok = write(fp, w + 4 * j, 4) == 4 && write(fp, "\n", 1) == 1;
  close(ft), close(fp);
  snprintf(cmd, sizeof(cmd), "LC_ALL=C grep -F -c -f %s %s", pf, tf);
  double t0 = wall_ms(), ms = -1.0;
  FILE *f = ok ? popen(cmd, "r") : NULL;
  if (f && fscanf(f, "%lld", lines) == 1) ms = wall_ms() - t0;
  if (f) pclose(f);
  unlink(tf), unlink(pf);
  if (ms < 0) snprintf(why, nwhy, "%s", ok ? "grep gave no count" : "cannot write the text to a file");
  return ms;
}

#endif
