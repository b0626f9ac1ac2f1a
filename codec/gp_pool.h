/* A small pool of host threads kept for the life of the process, for the staged upload's copy
 * (opencl/gp_cl_upload.c: creating eight threads for every 64 MB upload cost more than a tenth of
 * the time the bus needs for it) and the index build's decode (index/gp_index.c). Knows nothing
 * of OpenCL or PHP. */
#ifndef GP_POOL_H
#define GP_POOL_H

#include <stddef.h>
#include <sys/types.h>

#define GP_POOL_MAX 16   /* workers, counting the caller */

/* fn(arg) runs on the caller and on those of n - 1 pool threads (started the first time they
 * are wanted) that wake before the caller's own call returns; returns when every call begun
 * has returned. Work is shared by the calls taking pieces from a counter of their own until
 * none is left, so the caller's call alone finishes it: a thread that wakes late or cannot
 * start only leaves more to the others. One job at a time: a second caller, on another thread,
 * runs its fn alone. */
void gp_pool_run(size_t n, void (*fn)(void *arg), void *arg);

/* The process's id without a system call each time (a device call asks several times whether it
 * runs in the process that opened the device): read once, and again in the child of a fork(). */
pid_t gp_self_pid(void);

/* Stops and joins the threads (module shutdown). */
void gp_pool_shutdown(void);

#endif
