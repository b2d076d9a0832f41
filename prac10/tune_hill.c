/*
 * tune_hill.c -- hill climbing with random restarts, tune's local search (-strategy=hill; handout step 3). The
 * learner writes its moves in exercises/tune_hill.c; `./exercises/tune examples/fake.conf
 * -replay=examples/fake_full.csv -strategy=hill -trials=50` judges them without a GPU.
 *
 * From a random configuration not yet run, try its neighbours: each variable one value up or down its list
 * (tune_neighbour steps over values that fail or are restricted, so that a value that does not compile is not a
 * wall), the move that last improved first and the rest in random order, and go to the first one that scores
 * better. Where none does (a local minimum), restart from a random configuration not yet run. It stops at the
 * budget (tune_search_point then sets s->stopped), or when every allowed configuration has been run.
 */
#include <string.h>

#include "tune.h"

const char tune_exercise_todo[] = "";

void tune_hill_climb(tune_search *s) {
  const tune_conf *c = s->conf;
  int cur[TUNE_MAX_VARS] = {0}, nb[TUNE_MAX_VARS], order[2 * TUNE_MAX_VARS], n = 2 * c->nvars;
  while (!s->stopped && tune_random_unseen(s, cur)) {
    int last = -1; /* a restart: no move has improved yet */
    tune_eval here = tune_search_point(s, cur);
    if (here.status == EVAL_RESTRICTED) continue;
    for (int moved = 1; moved && !s->stopped;) {
      tune_shuffle_moves(s, order, n, last);
      moved = 0;
      for (int i = 0; i < n && !moved && !s->stopped; i++) { /* the first neighbour that scores better */
        tune_eval there;
        if (!tune_neighbour(s, cur, order[i] / 2, order[i] % 2 ? 1 : -1, nb, &there)) continue;
        if (there.cost < here.cost) {
          memcpy(cur, nb, sizeof(cur));
          here = there;
          last = order[i];
          moved = 1;
        }
      }
    }
  }
}
