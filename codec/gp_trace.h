/* Timestamps of one call's steps, for issue 23's breakdown of a small call's fixed cost
 * (bench/call_overhead.sh): the glue, dispatch and runtime each mark the step they finish.
 * Off unless GPUPOST_TRACE=1 is in the environment at start-up (gp_trace_init); off, a mark is
 * one branch. A benchmark knob, like GPUPOST_PROFILE: gpu_info()['trace'] shows the last call's. */
#ifndef GP_TRACE_H
#define GP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define GP_TRACE_MAX 256

typedef struct gp_trace_log {
	int on;
	size_t n;                         /* steps marked since the call began (at most GP_TRACE_MAX) */
	const char *step[GP_TRACE_MAX];   /* static strings: what has just finished */
	uint64_t ns[GP_TRACE_MAX];        /* when, on the monotonic clock */
} gp_trace_log;

extern gp_trace_log gp_trace;

void gp_trace_init(void);
void gp_trace_mark(const char *step);
/* The call's start: the steps of the call before are forgotten. */
void gp_trace_start(void);

#define GP_TRACE(step)                        \
	do {                                      \
		if (gp_trace.on) gp_trace_mark(step); \
	} while (0)
#define GP_TRACE_START()                      \
	do {                                      \
		if (gp_trace.on) gp_trace_start();    \
	} while (0)

#endif
