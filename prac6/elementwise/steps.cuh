/*
 * elementwise/steps.cuh -- step 8's kernels 1 to 4 for every (operator, type): one instance of each kernel a pair,
 * chosen here at run time, as a framework's dispatch does (the operator and the type are compile-time
 * parameters of the kernels, so each instance has only its own arithmetic). Logical operators exist for int8
 * alone (table.h). Included by the runner after the step headers.
 */
static const char *const elt_step_names[] = {"copy", "divmod", "fastdiv", "half8", "tiled"};
#define ELT_NSTEPS 5

template <typename T, int OP> static void elt_run_kernel(int k, const elt_call *c) {
  if (k == 1) run_divmod<T, OP>(c);
  else if (k == 2) run_fastdiv<T, OP>(c);
  else if (k == 3) run_half8<T, OP>(c);
  else run_tiled<T, OP>(c);
}

#define ELT_OP_CASE(OP)             \
  case OP:                          \
    elt_run_kernel<T, OP>(k, c);    \
    return;
template <typename T> static void elt_run_type(int k, const elt_call *c) {
  switch (c->op) {
    ELT_OP_CASE(ELT_ADD) ELT_OP_CASE(ELT_SUB) ELT_OP_CASE(ELT_MUL) ELT_OP_CASE(ELT_DIV)
    ELT_OP_CASE(ELT_MAX) ELT_OP_CASE(ELT_MIN) ELT_OP_CASE(ELT_LT) ELT_OP_CASE(ELT_LE)
    ELT_OP_CASE(ELT_EQ) ELT_OP_CASE(ELT_NE) ELT_OP_CASE(ELT_GT) ELT_OP_CASE(ELT_GE)
  }
  if constexpr (std::is_same<T, int8_t>::value) {
    switch (c->op) { ELT_OP_CASE(ELT_AND) ELT_OP_CASE(ELT_OR) ELT_OP_CASE(ELT_XOR) }
  }
  printf("RESULT: FAIL (internal error: no kernel for operator %d on type %d)\n", c->op, c->type);
  exit(1);
}

// kernel k (1 to 4) of call c
static void elt_run(int k, const elt_call *c) {
  if (c->type == ELT_HALF) elt_run_type<__half>(k, c);
  else if (c->type == ELT_FLOAT) elt_run_type<float>(k, c);
  else elt_run_type<int8_t>(k, c);
}
