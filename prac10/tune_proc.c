/*
 * tune_proc.c -- a command run as a process: `sh -c CMD` in a process group of its own, stdin from /dev/null,
 * stdout and stderr into two temporary files (so a command that prints a lot never blocks on a pipe, and what it
 * printed is read after it ends, a line at a time). The time limit is on the process, not on its output: at the
 * deadline the whole group is killed, and so is whatever the command left running when it ended (a program in
 * the background, which would otherwise share the machine with the next timing). A command that prints more
 * than TUNE_OUTPUT_MAX bytes is stopped too.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tune.h"

double tune_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Ctrl-C while a command runs: the command's process group goes too */
static volatile pid_t running_group;
static void on_interrupt(int sig) {
  if (running_group > 0) kill(-running_group, SIGKILL);
  signal(sig, SIG_DFL);
  raise(sig);
}

static long long printed(const tune_proc *p) {
  struct stat a, b;
  if (fstat(fileno(p->out), &a) || fstat(fileno(p->err), &b)) return 0;
  return (long long)a.st_size + (long long)b.st_size;
}

/* the child: its own process group, its files in place of 0, 1 and 2, then the shell */
_Noreturn static void start_child(const char *cmd, int null, const tune_proc *p) {
  setpgid(0, 0);
  if (dup2(null, 0) < 0 || dup2(fileno(p->out), 1) < 0 || dup2(fileno(p->err), 2) < 0) _exit(127);
  close(null);
  execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
  _exit(127);
}

/* waits for the shell to end (not reaping it yet, so that its group id stays its own), or for the deadline or
 * the output limit; then kills the group, and reaps the shell */
static void wait_for(pid_t pid, double t0, double timeout_s, tune_proc *p) {
  double nap = 0.001;
  for (;;) {
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    int rc = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
    if (rc < 0 && errno != EINTR) break;
    if (rc == 0 && info.si_pid == pid) break; /* it has ended */
    if (tune_now_s() - t0 >= timeout_s) {
      p->timed_out = 1;
      break;
    }
    if (printed(p) > TUNE_OUTPUT_MAX) {
      p->too_much = 1;
      break;
    }
    struct timespec ts = {0, (long)(nap * 1e9)};
    nanosleep(&ts, NULL);
    if (nap < 0.02) nap *= 2;
  }
  kill(-pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) continue;
  p->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  p->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/* 0, or -1 when it could not start (no temporary file, no /dev/null, no process) */
int tune_run_cmd(const char *cmd, double timeout_s, tune_proc *p) {
  memset(p, 0, sizeof(*p));
  p->out = tmpfile();
  p->err = tmpfile();
  int null = open("/dev/null", O_RDONLY);
  if (!p->out || !p->err || null < 0) {
    if (null >= 0) close(null);
    tune_proc_free(p);
    return -1;
  }
  signal(SIGINT, on_interrupt);
  signal(SIGTERM, on_interrupt);
  fflush(stdout); /* nothing buffered is copied into the child */
  double t0 = tune_now_s();
  pid_t pid = fork();
  if (pid == 0) start_child(cmd, null, p);
  close(null);
  if (pid < 0) {
    tune_proc_free(p);
    return -1;
  }
  setpgid(pid, pid); /* as the child does: whichever runs first */
  running_group = pid;
  wait_for(pid, t0, timeout_s, p);
  running_group = 0;
  p->seconds = tune_now_s() - t0;
  rewind(p->out);
  rewind(p->err);
  return 0;
}

void tune_proc_free(tune_proc *p) {
  if (p->out) fclose(p->out);
  if (p->err) fclose(p->err);
  p->out = NULL;
  p->err = NULL;
}

/* The next line of f, without its newline (or \r\n), in *buf (grown as needed); NULL at the end. A NUL byte is
 * read as a space, so that it cannot hide the rest of the line. */
char *tune_next_line(FILE *f, char **buf, size_t *cap) {
  ssize_t n = getline(buf, cap, f);
  if (n < 0) return NULL;
  for (ssize_t i = 0; i < n; i++)
    if ((*buf)[i] == '\0') (*buf)[i] = ' ';
  while (n > 0 && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r')) {
    n--;
    (*buf)[n] = '\0';
  }
  return *buf;
}
