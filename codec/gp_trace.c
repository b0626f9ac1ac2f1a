#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gp_trace.h"

gp_trace_log gp_trace;

/* Only the thread that began the call marks: the threads of a call split over several devices
 * would race for the log. */
static _Thread_local int gp_trace_mine;

void gp_trace_init(void)
{
	gp_trace_mine = 1;
	const char *v = getenv("GPUPOST_TRACE");
	gp_trace.on = v && strcmp(v, "1") == 0;
	gp_trace.n = 0;
}

void gp_trace_mark(const char *step)
{
	struct timespec t;
	if (!gp_trace_mine || gp_trace.n >= GP_TRACE_MAX) return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	gp_trace.step[gp_trace.n] = step;
	gp_trace.ns[gp_trace.n++] = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void gp_trace_start(void)
{
	gp_trace_mine = 1;
	gp_trace.n = 0;
	gp_trace_mark("call");
}
