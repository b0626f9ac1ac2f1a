/* The top k of one ranked query on the host (query/gp_rank.c, used by query/gp_query.c): each
 * candidate doc scored from its tf per distinct term, a heap of the best so far. */
#ifndef GP_INDEX_RANK_H
#define GP_INDEX_RANK_H

#include "gp_query.h"

typedef struct gp_rank {
	const gp_index *ix;
	uint32_t k;
	size_t n_places;
	uint32_t *place_term;     /* per place (the query's terms in order, unknown ones left out):
	                           * its term's index among the query's distinct terms */
	double *idf;              /* per place */
	uint32_t *tf;             /* per distinct term: the current doc's tf, 0 when absent */
	double *h_score;          /* the heap: the worst of the best on top */
	uint32_t *h_doc;
	size_t h_n, h_cap, cap_places, cap_terms;
} gp_rank;

/* Room for `places` places over `terms` distinct terms (their tf zeroed) and a heap of the best
 * `heap`, emptied; no places yet (the caller adds them: place_term, idf, n_places). */
int gp_rank_room(gp_rank *r, const gp_index *ix, size_t places, size_t terms, size_t heap);
/* Sets r up for query `query` of q whose distinct terms are ids[0..k) (gp_query_plan's order);
 * GP_ENOMEM when its tables cannot grow. */
int gp_rank_begin(gp_rank *r, const gp_index *ix, const gp_query_batch *q, size_t query,
                  const uint32_t *ids, size_t k, uint64_t most);
/* MaxScore's pieces (OR on the host): distinct term j's (index id t) bound on what it adds to a
 * score, and what it adds with tf in a doc of dl tokens; whether the heap is full, and then the
 * score a doc must pass to enter it (a doc with an equal score and a larger doc does not). */
double gp_rank_term_bound(gp_rank *r, uint32_t j, uint32_t t);
/* The same for a bound given as a fraction (a block's, gp_cursor_block_bound). */
double gp_rank_frac_bound(const gp_rank *r, uint32_t j, double frac);
double gp_rank_term_part(const gp_rank *r, uint32_t j, uint32_t tf, double dl);
static inline int gp_rank_full(const gp_rank *r)
{
	return r->k > 0 && r->h_n == r->k;
}
static inline double gp_rank_threshold(const gp_rank *r)
{
	return r->h_score[0];
}
/* Scores doc from r->tf and keeps it if it is among the best so far. */
void gp_rank_doc(gp_rank *r, uint32_t doc);
/* The same from each place's frequency (freq[p]: its tf, or a sum of column weights a hit); with
 * `plus` added to the score (a prior). */
void gp_rank_doc_freq(gp_rank *r, uint32_t doc, const double *freq);
void gp_rank_doc_freq_plus(gp_rank *r, uint32_t doc, const double *freq, double plus);
/* Keeps doc with its score if it is among the best so far. */
void gp_rank_keep(gp_rank *r, uint32_t doc, double score);
/* The best docs, best first (ties: the smaller doc), into docs and scores; returns how many. */
size_t gp_rank_finish(gp_rank *r, uint32_t *docs, double *scores);
void gp_rank_free(gp_rank *r);

#endif
