/* An index's doc lengths (BM25's D, N and average) and BM25's IDF as SQLite FTS5's bm25() computes
 * them: what ranked queries on the host (query/gp_rank.c) and the device read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"

double gp_bm25_idf(uint64_t n_docs, uint64_t df)
{
	double idf = log(((double)n_docs - (double)df + 0.5) / ((double)df + 0.5));
	return idf > 0.0 ? idf : 1e-6;   /* NaN too (totals from a file that lies) */
}

static int bad_value(gp_error *err, const char *fmt, unsigned long long a, unsigned long long b)
{
	err->code = GP_EVALUE;
	err->format = "doc lengths";
	snprintf(err->rule, sizeof(err->rule), fmt, a, b);
	return GP_EVALUE;
}

int gp_index_adopt_lengths(gp_index *ix, uint32_t *table, uint32_t len_docs, double k1, double b,
                           gp_error *err)
{
	uint64_t n = 0, total = 0;
	if (!gp_bm25_params_valid(k1, b)) return bad_value(err, "BM25's k1 and b must be 0 to 1e6 and 0 to 1%.0llu%.0llu", 0, 0);
	for (uint32_t d = 0; d < len_docs; d++) {
		if (table[d] == GP_IX_NO_LENGTH) continue;
		n++;
		total += table[d];
	}
	/* every doc of the lists needs its length */
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		for (uint64_t p = ix->list_at[t]; p < ix->list_at[t + 1]; p++) {
			uint32_t d = ix->docs[p];
			if (d >= len_docs || table[d] == GP_IX_NO_LENGTH) {
				err->blob = t;
				return bad_value(err, "doc %llu (of list %llu) has no length", d, t);
			}
			if (table[d] == 0) {   /* a doc that holds a term holds a token */
				err->blob = t;
				return bad_value(err, "doc %llu (of list %llu) has length 0", d, t);
			}
		}
	}
	double *max_frac = malloc(((size_t)ix->n_terms + 1) * sizeof(double));
	if (!max_frac) {
		err->code = GP_ENOMEM;
		err->format = "memory";
		snprintf(err->rule, sizeof(err->rule), "the host could not allocate the terms' score bounds");
		return GP_ENOMEM;
	}
	free(ix->doc_len);
	free(ix->max_frac);
	ix->max_frac = max_frac;
	ix->doc_len = table;
	ix->len_docs = len_docs;
	ix->n_len = n;
	ix->total_len = total;
	ix->k1 = k1;
	ix->b = b;
	ix->avgdl = n ? (double)total / (double)n : 0.0;
	/* each term's bound for MaxScore, once: a pass over the postings */
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		double m = 0.0;
		for (uint64_t p = ix->list_at[t]; p < ix->list_at[t + 1]; p++) {
			double f = gp_bm25_part(1.0, (double)gp_index_tf(ix, p), k1, b, (double)table[ix->docs[p]], ix->avgdl);
			if (f > m) m = f;
		}
		max_frac[t] = m;
	}
	return GP_OK;
}

int gp_index_set_lengths(gp_index *ix, const uint32_t *docs, const uint32_t *lens, size_t n, double k1,
                         double b, const gp_budget *budget, gp_error *err)
{
	uint64_t len_docs = 0;
	memset(err, 0, sizeof(*err));
	for (size_t i = 0; i < n; i++) {
		if (docs[i] == UINT32_MAX) return bad_value(err, "doc %llu is past the largest an index holds%.0llu", docs[i], 0);
		if ((uint64_t)docs[i] + 1 > len_docs) len_docs = (uint64_t)docs[i] + 1;
		if (lens[i] == GP_IX_NO_LENGTH) return bad_value(err, "doc %llu: length %llu is 2^32 - 1 or more", docs[i], lens[i]);
	}
	if (gp_budget_check(budget, 0, len_docs * 4, "the doc lengths", err) != GP_OK) return GP_ENOMEM;
	uint32_t *table = malloc((size_t)(len_docs + 1) * sizeof(uint32_t));
	if (!table) {
		err->code = GP_ENOMEM;
		err->format = "memory";
		snprintf(err->rule, sizeof(err->rule), "the host could not allocate the doc lengths");
		return GP_ENOMEM;
	}
	memset(table, 0xFF, (size_t)(len_docs + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		if (table[docs[i]] != GP_IX_NO_LENGTH) {
			free(table);
			return bad_value(err, "doc %llu is given twice%.0llu", docs[i], 0);
		}
		table[docs[i]] = lens[i];
	}
	int rc = gp_index_adopt_lengths(ix, table, (uint32_t)len_docs, k1, b, err);
	if (rc != GP_OK) free(table);
	return rc;
}
