/*
 * tune_table.c -- the line a tuning writes into a tuned table (practical 10, step 5): tuned/<gpu>.txt, one line per
 * program and size class, "PROGRAM SIZE: SETTINGS", the settings being the program's own flags, which
 * common/tuned.h (the programs' reader) applies at start-up where the user typed none. A line for the same program
 * and size is replaced; the file is written whole to a temporary name and renamed, so that a reader never sees it
 * half written; a new file starts with a comment naming its GPU.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"
#include "tuned.h"

void tune_table_key(const char *gpu_name, char *key, size_t len) { tuned_gpu_key(gpu_name, key, len); }

int tune_table_write(const char *path, const char *gpu_name, const char *program, const char *size,
                     const char *settings, char *msg, size_t len) {
  char head[256], tmp[1100], line[TUNE_CMD_LEN + 256];
  snprintf(head, sizeof(head), "%s %s:", program, size);
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  FILE *in = fopen(path, "r"), *out = fopen(tmp, "w");
  if (!out) {
    if (in) fclose(in);
    return snprintf(msg, len, "cannot write %s", tmp), -1;
  }
  if (!in)
    fprintf(out,
            "# %s -- %s; written by tune -table (practical 10, make tune), read by common/tuned.h:\n"
            "# PROGRAM SIZE: the program's flags for the size class nearest its size\n",
            strrchr(path, '/') ? strrchr(path, '/') + 1 : path, gpu_name);
  int replaced = 0;
  while (in && fgets(line, sizeof(line), in)) {
    if (!strncmp(line, head, strlen(head))) { /* this program's line for this size: the new one instead */
      if (!replaced) fprintf(out, "%s %s\n", head, settings);
      replaced = 1;
      continue;
    }
    fputs(line, out);
  }
  if (!replaced) fprintf(out, "%s %s\n", head, settings);
  if (in) fclose(in);
  if (fclose(out) != 0 || rename(tmp, path) != 0) return snprintf(msg, len, "cannot write %s", path), -1;
  return 0;
}
