/* Ranked retrieval on the host: the top k of a query, MaxScore's bounds on its terms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_rank.h"

/* --- the host's top k --- */

/* Room for `want` entries in two arrays of one capacity (b may be NULL). */
static int grow(void **a, size_t ea, void **b, size_t eb, size_t *cap, size_t want)
{
	if (want <= *cap) return GP_OK;
	size_t c = *cap ? *cap : 16;
	while (c < want) c *= 2;
	void *pa = realloc(*a, c * ea), *pb = NULL;
	if (pa) *a = pa;
	if (b && (pb = realloc(*b, c * eb))) *b = pb;
	if (!pa || (b && !pb)) return GP_ENOMEM;
	*cap = c;
	return GP_OK;
}

int gp_rank_room(gp_rank *r, const gp_index *ix, size_t places, size_t terms, size_t heap)
{
	if (grow((void **)&r->place_term, sizeof(uint32_t), (void **)&r->idf, sizeof(double), &r->cap_places, places + 1) != GP_OK ||
	    grow((void **)&r->tf, sizeof(uint32_t), NULL, 0, &r->cap_terms, terms + 1) != GP_OK ||
	    grow((void **)&r->h_score, sizeof(double), (void **)&r->h_doc, sizeof(uint32_t), &r->h_cap, heap + 1) != GP_OK) {
		return GP_ENOMEM;
	}
	r->ix = ix;
	r->k = (uint32_t)heap;
	r->h_n = 0;
	r->n_places = 0;
	memset(r->tf, 0, (terms + 1) * sizeof(uint32_t));
	return GP_OK;
}

int gp_rank_begin(gp_rank *r, const gp_index *ix, const gp_query_batch *q, size_t query,
                  const uint32_t *ids, size_t k, uint64_t most)
{
	size_t places = (size_t)(q->at[query + 1] - q->at[query]);
	size_t heap = q->limit < most ? q->limit : (size_t)most;
	if (gp_rank_room(r, ix, places, k, heap) != GP_OK) return GP_ENOMEM;
	for (size_t p = 0; p < places; p++) {
		uint32_t t = q->terms[q->at[query] + p];
		size_t j = 0;
		while (j < k && ids[j] != t) j++;
		if (j == k) continue;   /* a term the index lacks (OR): adds nothing */
		r->place_term[r->n_places] = (uint32_t)j;
		r->idf[r->n_places++] = gp_bm25_idf(ix->n_len, gp_index_rank_df(ix, t));
	}
	return GP_OK;
}

double gp_rank_frac_bound(const gp_rank *r, uint32_t j, double frac)
{
	double ub = 0.0;
	for (size_t p = 0; p < r->n_places; p++) {
		if (r->place_term[p] == j) ub += r->idf[p] * frac;
	}
	return ub;
}

double gp_rank_term_bound(gp_rank *r, uint32_t j, uint32_t t)
{
	return gp_rank_frac_bound(r, j, gp_index_max_frac(r->ix, t));
}

double gp_rank_term_part(const gp_rank *r, uint32_t j, uint32_t tf, double dl)
{
	const gp_index *ix = r->ix;
	double s = 0.0;
	for (size_t p = 0; tf && p < r->n_places; p++) {
		if (r->place_term[p] == j) s += gp_bm25_part(r->idf[p], (double)tf, ix->k1, ix->b, dl, ix->avgdl);
	}
	return s;
}

/* Whether (s, d) ranks below (t, e): a lower score, or the same score and a larger doc. */
static inline int worse(double s, uint32_t d, double t, uint32_t e)
{
	return s < t || (s == t && d > e);
}

static void sift_down(gp_rank *r, size_t c)
{
	for (;;) {
		size_t l = 2 * c + 1, m = c;
		if (l < r->h_n && worse(r->h_score[l], r->h_doc[l], r->h_score[m], r->h_doc[m])) m = l;
		if (l + 1 < r->h_n && worse(r->h_score[l + 1], r->h_doc[l + 1], r->h_score[m], r->h_doc[m])) m = l + 1;
		if (m == c) return;
		double s = r->h_score[c]; r->h_score[c] = r->h_score[m]; r->h_score[m] = s;
		uint32_t d = r->h_doc[c]; r->h_doc[c] = r->h_doc[m]; r->h_doc[m] = d;
		c = m;
	}
}

void gp_rank_keep(gp_rank *r, uint32_t doc, double score)
{
	if (r->k == 0) return;
	if (r->h_n < r->k) {   /* room: sift up */
		size_t c = r->h_n++;
		r->h_score[c] = score;
		r->h_doc[c] = doc;
		while (c > 0 && worse(r->h_score[c], r->h_doc[c], r->h_score[(c - 1) / 2], r->h_doc[(c - 1) / 2])) {
			size_t up = (c - 1) / 2;
			double s = r->h_score[c]; r->h_score[c] = r->h_score[up]; r->h_score[up] = s;
			uint32_t d = r->h_doc[c]; r->h_doc[c] = r->h_doc[up]; r->h_doc[up] = d;
			c = up;
		}
	} else if (worse(r->h_score[0], r->h_doc[0], score, doc)) {
		r->h_score[0] = score;
		r->h_doc[0] = doc;
		sift_down(r, 0);
	}
}

void gp_rank_doc(gp_rank *r, uint32_t doc)
{
	const gp_index *ix = r->ix;
	double score = 0.0, dl = (double)ix->doc_len[doc];
	for (size_t p = 0; p < r->n_places; p++) {
		uint32_t tf = r->tf[r->place_term[p]];
		if (tf) score += gp_bm25_part(r->idf[p], (double)tf, ix->k1, ix->b, dl, ix->avgdl);
	}
	gp_rank_keep(r, doc, score);
}

void gp_rank_doc_freq(gp_rank *r, uint32_t doc, const double *freq)
{
	gp_rank_doc_freq_plus(r, doc, freq, 0.0);
}

void gp_rank_doc_freq_plus(gp_rank *r, uint32_t doc, const double *freq, double plus)
{
	const gp_index *ix = r->ix;
	double score = 0.0, dl = (double)ix->doc_len[doc];
	for (size_t p = 0; p < r->n_places; p++) {
		if (freq[p] != 0.0) score += gp_bm25_part(r->idf[p], freq[p], ix->k1, ix->b, dl, ix->avgdl);
	}
	gp_rank_keep(r, doc, score + plus);
}

size_t gp_rank_finish(gp_rank *r, uint32_t *docs, double *scores)
{
	size_t n = r->h_n;
	/* the worst out first, into the last free place */
	while (r->h_n > 0) {
		size_t last = --r->h_n;
		docs[last] = r->h_doc[0];
		scores[last] = r->h_score[0];
		r->h_score[0] = r->h_score[last];
		r->h_doc[0] = r->h_doc[last];
		sift_down(r, 0);
	}
	return n;
}

void gp_rank_free(gp_rank *r)
{
	free(r->place_term);
	free(r->idf);
	free(r->tf);
	free(r->h_score);
	free(r->h_doc);
	memset(r, 0, sizeof(*r));
}
