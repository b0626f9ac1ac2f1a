/* Queries over an index (query/gp_query.c on the host; opencl/gp_cl_index.c on a device): a batch
 * of term-id queries under one operator, its plan, and the answers with the one rule for what they
 * cost. */
#ifndef GP_QUERY_H
#define GP_QUERY_H

#include "../index/gp_index.h"

/* A batch of queries: query q's terms are term ids terms[at[q] .. at[q + 1]) (GP_IX_NO_TERM for
 * a term the index lacks), in the query's order. AND and OR take each distinct term once; a
 * phrase matches where its terms occur at consecutive positions, a repeated term at each place. */
typedef struct gp_query_batch {
	int op;
	size_t n_queries;
	const uint32_t *terms;
	const uint64_t *at;       /* n_queries + 1 */
	int count_only;           /* only the counts (gp_answers.at), no docs */
	uint32_t limit;           /* > 0: the `limit` best docs by BM25 (AND, OR), best first */
} gp_query_batch;

/* The answers: query q's docs are docs[at[q] .. at[q + 1]), increasing. docs and at are malloc'd
 * (gp_answers_free). */
typedef struct gp_answers {
	size_t n_queries;
	uint64_t total;
	uint32_t *docs;
	uint64_t *at;
	double *scores;           /* ranked batches: each doc's score (docs best first) */
	uint64_t *matched;        /* when asked (query trees): each query's matches, all of them */
	uint64_t face_bytes;      /* what the face's copies of the answers admitted so far take */
	size_t admitted;          /* the queries whose answers are counted in face_bytes */
} gp_answers;

void gp_answers_free(gp_answers *a);
/* The one rule for what a batch's answers cost (docs/RELIABILITY.md): queries [a->admitted,
 * upto) (their at[] set) are added as the face's copies of them, in the budget's terms (a list
 * of docs, or for a ranked query a map doc => score), under the batch's map when there are
 * several, and the whole checked against the budget with the answers' C bytes (4 a doc, 12
 * ranked). GP_ENOMEM naming the size and the limit. */
int gp_answers_admit(gp_answers *a, size_t upto, int ranked, const gp_budget *budget, gp_error *err);

/* The postings a batch reads (its lists' lengths): the device's work, that decides whether a
 * batch pays a launch. */
uint64_t gp_query_work(const gp_index *ix, const gp_query_batch *q);
/* What a batch costs the host path, in postings read: an AND or a phrase, ranked or not, walks
 * its shortest list and seeks in the others (a ranked one scores each match it finds); an OR reads
 * its lists. A query and a term cost a little whatever their lists. The work that decides
 * whether a single query is worth sending to a device server. */
uint64_t gp_query_host_work(const gp_index *ix, const gp_query_batch *q);
/* The distinct term ids of query `query` in ascending list length (then id): keys (room for
 * the query's terms) gets (length << 32 | id) each; returns how many, 0 when a term the index
 * lacks empties an AND or a phrase (OR drops such terms). */
size_t gp_query_plan(const gp_index *ix, const gp_query_batch *q, size_t query, uint64_t *keys);

/* Whether op is one the engine answers, and whether a batch is ranked (a limit ranks AND and OR;
 * a phrase is never ranked). */
static inline int gp_query_op_known(int op)
{
	return op == GP_IX_OR || op == GP_IX_AND || op == GP_IX_PHRASE;
}

static inline int gp_query_ranked(const gp_query_batch *q)
{
	return q->limit > 0 && q->op != GP_IX_PHRASE;
}

/* GP_OK when the engine can answer the batch: a known operator, doc lengths where it is ranked
 * (a limit on AND or OR), and no ranking of a counts-only batch; else GP_EVALUE naming why. The faces check the same
 * in their own terms first; this keeps a face that does not (a server's client) from reaching
 * the ranking without lengths. */
int gp_query_batch_check(const gp_index *ix, const gp_query_batch *q, gp_error *err);

/* The host's answers (galloping intersection from the shortest list, merges, positions checked
 * per candidate): the reference the device equals. GP_ENOMEM when the answers would pass the
 * budget (gp_answers_admit). */
int gp_index_query_host(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget,
                        gp_answers *out, gp_error *err);

#endif
