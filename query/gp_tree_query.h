/* Query trees (query/gp_qtree.h) answered on the host, as SQLite FTS5 answers MATCH expressions:
 * which docs match, how many, and the best k by FTS5's bm25() over the tree's phrases. */
#ifndef GP_TREE_QUERY_H
#define GP_TREE_QUERY_H

#include "gp_query.h"
#include "gp_qtree.h"

/* A filter on a numeric attribute: its value in [lo, hi] (either end may be infinite), or one of
 * set[0 .. n_set). A doc without the attribute passes none. */
typedef struct gp_tree_filter {
	uint32_t attr;
	double lo, hi;
	const double *set;        /* NULL: the range */
	uint32_t n_set;
} gp_tree_filter;

typedef struct gp_tree_batch {
	size_t n_queries;
	const gp_qtree *const *trees;
	int count_only;           /* only the counts (gp_answers.at), no docs */
	uint32_t limit;           /* > 0: the `limit` best docs by BM25, best first */
	const double *weights;    /* ranked: a hit's weight by its column (0 to 1e6, else GP_EVALUE), as
	                           * FTS5's bm25(t, w0, w1, ...) (columns past n_weights: 1); NULL: 1 */
	uint32_t n_weights;
	int count_matches;        /* each query's matches, all of them, in gp_answers.matched */
	const gp_tree_filter *filters;   /* every one a doc must pass to match */
	uint32_t n_filters;
	int prior_attr;           /* >= 0: ranked, prior_weight x this attribute added to the score (-1: none) */
	double prior_weight;
	int order_attr;           /* >= 0: ranked by this attribute instead (order_desc: largest first; -1: none) */
	int order_desc;
} gp_tree_batch;

/* The answers of a batch of trees, as gp_index_query_host's of flat queries (docs increasing, or
 * ranked with scores; the budget as there). A term the index lacks matches nothing; a prefix
 * matches every term that begins with it (their postings merged, within the budget). Ranked: each
 * phrase adds IDF x tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl)) where tf is its instances in
 * the doc (those within the NEAR distance of its group's others, FTS5's trimming) when its branch
 * of the tree matches there, none otherwise (a NOT's right side never adds), and IDF comes from
 * the docs that hold the phrase alone. GP_EVALUE: phrases of several items, NEAR groups of several
 * phrases and ^ on an index without positions; a ranking by BM25 without doc lengths. Filters
 * keep the matches whose attributes pass (the rest are no matches, nor counted); a prior adds
 * its weight times the doc's attribute (0 without one) to its score; an order ranks by an
 * attribute, its value the score (docs without it last), ties by the smaller doc. */
int gp_index_tree_query_host(const gp_index *ix, const gp_tree_batch *b, const gp_budget *budget, gp_answers *out,
                             gp_error *err);
/* The same for a batch that gp_tree_batch_check has accepted (the device's fallback). */
int gp_index_tree_query_host_checked(const gp_index *ix, const gp_tree_batch *b, const gp_budget *budget,
                                     gp_answers *out, gp_error *err);
/* Whether ix can answer the batch's options (GP_EVALUE naming why: a count ranked, a ranking
 * without doc lengths, a column weight outside 0 to 1e6, an attribute the index lacks, a range
 * with a NaN end; ranked, a
 * prior and an order together, a prior's weight not finite; unranked, neither is read): what every
 * path checks first, whoever asks (the PHP face checks names before). */
int gp_tree_batch_check(const gp_index *ix, const gp_tree_batch *b, gp_error *err);
/* About how many postings the host's walk reads for trees[0 .. n) (a prefix's: every doc, its
 * terms not looked up): gp_query_host_work's measure for trees, by which the faces place them. */
uint64_t gp_tree_host_work(const gp_index *ix, const gp_qtree *const *trees, size_t n);

#endif
