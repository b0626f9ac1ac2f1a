/* A batch's answers as the host's operators find them (flat queries in query/gp_query.c, query
 * trees in query/gp_tree_query.c), each growth checked against the budget as C bytes. */
#ifndef GP_SINK_H
#define GP_SINK_H

#include "gp_query.h"

typedef struct gp_sink {
	gp_answers *a;
	size_t cap;               /* room in a->docs (and a->scores) */
	int count_only, ranked;
	const gp_budget *budget;
	gp_error *err;
} gp_sink;

/* Room for `more` answers beyond the total: GP_ENOMEM past the budget or the allocator. */
int gp_sink_reserve(gp_sink *s, uint64_t more);

/* A batch that failed with rc: its answers freed, an allocation that failed named in err. */
void gp_sink_failed(gp_sink *s, int rc);

static inline void gp_sink_put(gp_sink *s, uint32_t doc)
{
	if (!s->count_only) s->a->docs[s->a->total] = doc;
	s->a->total++;
}

#endif
