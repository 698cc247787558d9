/*===- compat/omp.h - OpenMP runtime declarations for parsing -------------===*
 *
 * Host code of CUDA programs built with nvcc -Xcompiler -fopenmp includes
 * <omp.h>, which the host compiler (gcc's libgomp, LLVM's libomp) supplies.
 * clang's CUDA front-end finds gcc's omp.h nowhere on its search path, and
 * the analysis compiles no host code, so this file only declares what such
 * code calls: the OpenMP 4.5 runtime routines, their types and the lock
 * API. It is reached through -idirafter (analysis/frontend/Prelude.h): a real
 * omp.h anywhere on the search path is found first and wins. Nothing here is
 * defined or linked; _OPENMP is not defined, as a plain omp.h does not.
 *
 *===----------------------------------------------------------------------===*/

#ifndef CUDA_ROOFLINE_COMPAT_OMP_H
#define CUDA_ROOFLINE_COMPAT_OMP_H

/* Diagnostics of the user's build are not about this file. */
#pragma clang system_header

/* Opaque: nothing reads a lock but the runtime, which is never linked. */
typedef struct omp_lock_t {
  void *cuda_roofline_opaque[2];
} omp_lock_t;
typedef struct omp_nest_lock_t {
  void *cuda_roofline_opaque[3];
} omp_nest_lock_t;

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_master = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;

#ifdef __cplusplus
extern "C" {
#endif

void omp_set_num_threads(int);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
void omp_set_nested(int);
int omp_get_nested(void);
int omp_get_cancellation(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t *, int *);
int omp_get_thread_limit(void);
void omp_set_max_active_levels(int);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int);
int omp_get_team_size(int);
int omp_get_active_level(void);
int omp_in_final(void);
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num(void);
void omp_set_default_device(int);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
int omp_get_max_task_priority(void);

void omp_init_lock(omp_lock_t *);
void omp_destroy_lock(omp_lock_t *);
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int omp_test_lock(omp_lock_t *);
void omp_init_nest_lock(omp_nest_lock_t *);
void omp_destroy_nest_lock(omp_nest_lock_t *);
void omp_set_nest_lock(omp_nest_lock_t *);
void omp_unset_nest_lock(omp_nest_lock_t *);
int omp_test_nest_lock(omp_nest_lock_t *);

double omp_get_wtime(void);
double omp_get_wtick(void);

#ifdef __cplusplus
}
#endif

#endif /* CUDA_ROOFLINE_COMPAT_OMP_H */
