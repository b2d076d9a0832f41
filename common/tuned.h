/*
 * tuned.h -- the tuned tables (practical 10): a program's settings for this GPU and this size, read at start-up
 * from tuned/<gpu>.txt, which `make tune` writes on the GPU it runs on. The repository keeps the tables its
 * maintainers committed (tuned/h100.txt, tuned/h200.txt); a learner's stays in their copy, theirs to commit.
 *
 * A table is plain text, one line per program and size class, its settings as the program's own flags, as in
 * tuned/h100.txt:
 *   # h100.txt -- NVIDIA H100 80GB HBM3; written by tune -table (practical 10, make tune), read by common/tuned.h:
 *   # PROGRAM SIZE: the program's flags for the size class nearest its size
 *   laplace3d_tb 384: -T=4 -by=64 -kchunk=256
 *   laplace3d_tb 512: -T=6 -by=64 -kchunk=512
 *   laplace3d_tb 640: -T=5 -by=64 -kchunk=512
 * The file is named by the GPU (tuned_gpu_key: h100, h200, else a slug of the name, as docs/results_<gpu>.csv).
 * A program looks up its name and its size (one number, such as the grid's side or the row length); the class
 * nearest to it on a log scale is used, so a size between two classes takes the closer one's settings. The
 * settings are applied as if typed before the command line: a flag the user gives still wins. The program then
 * prints one line, either
 *   settings: tuned for NVIDIA H100 80GB HBM3 at size 512 (tuned/h100.txt)
 *   settings: untuned defaults for this GPU (make tune writes them)
 *   settings: untuned defaults for this GPU, flags as typed (make tune writes a table)      (a flag typed, no table)
 * and where there is no table, what it runs is its defaults (or the rule it derives from the GPU's limits). A line
 * is one configuration, tuned together: where the command line gives any of its flags, none of it is used.
 * An exercise build (-DEXERCISE) reads no table and says so: settings: untuned defaults (an exercise build ...).
 *
 * Plain C, header only (tests/test_common.c checks it with gcc). TUNED_DIR, the folder of the tables, is ../tuned:
 * from the practical's folder, where its programs run (make check, the handouts), the repository's tuned/.
 */
#ifndef TUNED_H
#define TUNED_H

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

#ifndef TUNED_DIR
#define TUNED_DIR "../tuned"
#endif
#define TUNED_LINE_MAX 512

/* the table's key for a GPU name: h100 or h200 where the name says so, else the name in lower case with every
 * run of other characters one '-' ("NVIDIA GeForce RTX 3060 Laptop GPU" -> nvidia-geforce-rtx-3060-laptop-gpu) */
static inline void tuned_gpu_key(const char *name, char *key, size_t len) {
  char lower[256];
  size_t n = 0;
  for (const char *p = name; *p && n + 1 < sizeof(lower); p++) lower[n++] = (char)tolower((unsigned char)*p);
  lower[n] = '\0';
  if (strstr(lower, "h100") || strstr(lower, "h200")) {
    snprintf(key, len, "%s", strstr(lower, "h100") ? "h100" : "h200");
    return;
  }
  size_t k = 0;
  int dash = 0;
  for (size_t i = 0; i < n && k + 1 < len; i++) {
    if (isalnum((unsigned char)lower[i])) {
      if (dash && k > 0 && k + 2 < len) key[k++] = '-';
      key[k++] = lower[i];
      dash = 0;
    } else {
      dash = 1;
    }
  }
  key[k] = '\0';
  if (k == 0) snprintf(key, len, "unknown");
}

typedef struct {
  int found;                     /* 1: a line of this program was in the table */
  double size;                   /* the size class used */
  char settings[TUNED_LINE_MAX]; /* its flags, as in the table */
  char path[512];                /* the table's file */
} tuned_pick;

/* The nearest size class of prog in the table at path (log scale; a tie: the smaller class). 0 with pick->found
 * set or not; -1 when the file exists but a line of prog is malformed (msg says which). */
static inline int tuned_read(const char *path, const char *prog, double size, tuned_pick *pick, char *msg, size_t len) {
  memset(pick, 0, sizeof(*pick));
  snprintf(pick->path, sizeof(pick->path), "%s", path);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[TUNED_LINE_MAX + 128];
  double best = INFINITY;
  int no = 0;
  size_t plen = strlen(prog);
  while (fgets(line, sizeof(line), f)) {
    no++;
    char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '#' || *p == '\0') continue;
    if (strncmp(p, prog, plen) != 0 || !isspace((unsigned char)p[plen])) continue;
    char *end;
    double cls = strtod(p + plen, &end);
    if (end == p + plen || *end != ':' || !(cls > 0)) {
      fclose(f);
      snprintf(msg, len, "%.150s:%d: '%.40s SIZE: flags' expected", path, no, prog);
      return -1;
    }
    double d = fabs(log(cls) - log(size > 0 ? size : 1));
    if (d < best || (d == best && cls < pick->size)) {
      best = d;
      pick->found = 1;
      pick->size = cls;
      char *s = end + 1;
      while (isspace((unsigned char)*s)) s++;
      snprintf(pick->settings, sizeof(pick->settings), "%s", s);
      char *nl = strpbrk(pick->settings, "\r\n");
      if (nl) *nl = '\0';
    }
  }
  fclose(f);
  return 0;
}

/* Every -name=value (or -flag) of settings, set through the program's own option table, so checked as a typed
 * flag is; but none of them when the command line gives any: a line is one configuration, tuned together, and
 * part of it beside part of yours is neither (then 1, with the first such flag's name in msg). The settings are
 * copied once and kept for the program's life: an ARG_WORD option points into its text, as into argv. 0 applied;
 * -1 with msg naming a setting that is not an option of this program or is out of its range. */
static inline int tuned_apply_settings(const char *settings, int argc, char **argv, const arg_spec *specs, int nspecs,
                                       char *msg, size_t len) {
  char *copy = strdup(settings); /* not freed: the options may point into it */
  if (!copy) return snprintf(msg, len, "out of memory"), -1;
  for (const char *p = copy; *p;) { /* is any of them typed? then none is used */
    p += strspn(p, " \t");
    size_t n = strcspn(p, "= \t");
    if (p[0] == '-' && n > 1) {
      char name[64];
      snprintf(name, sizeof(name), "%.*s", (int)(n - 1), p + 1);
      if (args_given(argc, argv, name)) {
        snprintf(msg, len, "-%s", name);
        free(copy);
        return 1;
      }
    }
    p += strcspn(p, " \t");
  }
  for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
    if (tok[0] != '-' || tok[1] == '\0') return snprintf(msg, len, "the setting %s is not -name=value", tok), -1;
    char *name = tok + 1, *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    int s = 0;
    while (s < nspecs && !(strlen(specs[s].name) == n && strncmp(specs[s].name, name, n) == 0)) s++;
    if (s == nspecs) return snprintf(msg, len, "the setting %s is not an option of this program", tok), -1;
    if (eq) *eq = '\0';
    int rc = args_set(&specs[s], tok, eq ? eq + 1 : NULL, msg, len);
    if (eq) *eq = '=';
    if (rc) return -1;
  }
  return 0;
}

/* The table's file for a GPU key. TUNED_DIR as it is where it is absolute; else found from the program's own path
 * (argv[0]), not the current folder, so that a program finds its table from wherever it is run: the program's
 * folder's ../tuned (pracN/PROG), else ../../tuned (pracN/exercises/PROG). A program run by bare name (through
 * PATH) looks from the current folder, as TUNED_DIR says. */
static inline void tuned_path(const char *argv0, const char *key, char *path, size_t len) {
  const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
  if (TUNED_DIR[0] == '/' || !slash) {
    snprintf(path, len, "%s/%s.txt", TUNED_DIR, key);
    return;
  }
  int dirlen = (int)(slash - argv0);
  for (int up = 0; up < 2; up++) { /* ../tuned, then ../../tuned: the first that has this GPU's file */
    snprintf(path, len, "%.*s/%s%s/%s.txt", dirlen, argv0, up ? "../" : "", TUNED_DIR, key);
    FILE *f = fopen(path, "r");
    if (f) {
      fclose(f);
      return;
    }
  }
  snprintf(path, len, "%.*s/%s/%s.txt", dirlen, argv0, TUNED_DIR, key); /* none: the first, for the messages */
}

/* Exercise builds (make exercises compiles them with -DEXERCISE, common/prac.mk) read no table: what a handout
 * promises of a starting file (a lane count, a block size) must hold on every GPU, whatever its table says. */
#ifdef EXERCISE
#define TUNED_READS_TABLE 0
#else
#define TUNED_READS_TABLE 1
#endif

/* tuned_settings' work, its settings line written to out: read_table 0 (an exercise build) reads no table.
 * 1 tuned, 0 not, -1 a table that cannot be read as one (the RESULT line written). The class is printed with
 * %.0f: size classes are whole numbers (16777216, not 1.67772e+07). */
static inline int tuned_settings_to(FILE *out, int read_table, const char *gpu_name, const char *prog, double size,
                                    int argc, char **argv, const arg_spec *specs, int nspecs) {
  if (!read_table) {
    fprintf(out, "settings: untuned defaults (an exercise build reads no table)\n");
    return 0;
  }
  char key[128], path[512], msg[ARG_MSG_LEN];
  tuned_gpu_key(gpu_name, key, sizeof(key));
  tuned_path(argc > 0 ? argv[0] : NULL, key, path, sizeof(path));
  tuned_pick pick;
  int rc = tuned_read(path, prog, size, &pick, msg, sizeof(msg));
  if (rc == 0 && pick.found) rc = tuned_apply_settings(pick.settings, argc, argv, specs, nspecs, msg, sizeof(msg));
  if (rc < 0) {
    fprintf(out, "RESULT: FAIL (bad input: tuned table %s: %s)\n", path, msg);
    return -1;
  }
  const char *file = strrchr(path, '/');
  file = file ? file + 1 : path;
  if (pick.found && rc == 0)
    fprintf(out, "settings: tuned for %s at size %.0f (tuned/%s)\n", gpu_name, pick.size, file);
  else if (pick.found)
    fprintf(out, "settings: as typed (tuned/%s's line for size %.0f not used: it sets %s too)\n", file, pick.size, msg);
  else if (argc > 1) /* no table: what was typed is used, as always, and the line says so */
    fprintf(out, "settings: untuned defaults for this GPU, flags as typed (make tune writes a table)\n");
  else
    fprintf(out, "settings: untuned defaults for this GPU (make tune writes them)\n");
  return pick.found && rc == 0;
}

/* What a program calls after parsing its command line and knowing its size: the table of this GPU (gpu_name),
 * the nearest class, its settings applied where the user gave none, and the settings line printed. A table
 * that cannot be read as one is bad input (one line, exit 1), as a bad flag is. Returns 1 when tuned. */
static inline int tuned_settings(const char *gpu_name, const char *prog, double size, int argc, char **argv,
                                 const arg_spec *specs, int nspecs) {
  int rc = tuned_settings_to(stdout, TUNED_READS_TABLE, gpu_name, prog, size, argc, argv, specs, nspecs);
  if (rc < 0) exit(1);
  return rc;
}

#endif /* TUNED_H */
