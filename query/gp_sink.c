/* The answers' room (query/gp_sink.h). */
#include <stdio.h>
#include <stdlib.h>

#include "gp_sink.h"

int gp_sink_reserve(gp_sink *s, uint64_t more)
{
	if (s->count_only || s->a->total + more <= s->cap) return GP_OK;
	uint64_t want = s->a->total + more, cap = s->cap ? s->cap : 1024;
	while (cap < want) cap *= 2;
	if (cap > want + ((uint64_t)16 << 20)) cap = want + ((uint64_t)16 << 20);
	if (gp_budget_check(s->budget, 0, cap * (s->ranked ? 12 : 4), "the answers", s->err) != GP_OK) return GP_ENOMEM;
	uint32_t *d = realloc(s->a->docs, (size_t)cap * sizeof(uint32_t));
	if (!d) return GP_ENOMEM;
	s->a->docs = d;
	if (s->ranked) {
		double *sc = realloc(s->a->scores, (size_t)cap * sizeof(double));
		if (!sc) return GP_ENOMEM;
		s->a->scores = sc;
	}
	s->cap = (size_t)cap;
	return GP_OK;
}

void gp_sink_failed(gp_sink *s, int rc)
{
	gp_error *err = s->err;
	if (rc == GP_ENOMEM && err->code != GP_ENOMEM) {
		err->code = GP_ENOMEM;
		err->format = "memory";
		snprintf(err->rule, sizeof(err->rule), "the host could not allocate the answers");
	}
	gp_answers_free(s->a);
}
