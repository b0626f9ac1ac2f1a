/* Query trees (query/gp_qtree.h) answered on the host, as SQLite FTS5 answers MATCH expressions:
 * which docs match, how many, and the best k by FTS5's bm25() over the tree's phrases. */
#ifndef GP_TREE_QUERY_H
#define GP_TREE_QUERY_H

#include "gp_query.h"
#include "gp_qtree.h"

typedef struct gp_tree_batch {
	size_t n_queries;
	const gp_qtree *const *trees;
	int count_only;           /* only the counts (gp_answers.at), no docs */
	uint32_t limit;           /* > 0: the `limit` best docs by BM25, best first */
	const double *weights;    /* ranked: a hit's weight by its column, as FTS5's bm25(t, w0, w1,
	                           * ...) (columns past n_weights: 1); NULL: 1 each */
	uint32_t n_weights;
	int count_matches;        /* each query's matches, all of them, in gp_answers.matched */
} gp_tree_batch;

/* The answers of a batch of trees, as gp_index_query_host's of flat queries (docs increasing, or
 * ranked with scores; the budget as there). A term the index lacks matches nothing; a prefix
 * matches every term that begins with it (their postings merged, within the budget). Ranked: each
 * phrase adds IDF x tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl)) where tf is its instances in
 * the doc (those within the NEAR distance of its group's others, FTS5's trimming) when its branch
 * of the tree matches there, none otherwise (a NOT's right side never adds), and IDF comes from
 * the docs that hold the phrase alone. GP_EVALUE: phrases of several items, NEAR groups of several
 * phrases and ^ on an index without positions; a ranking without doc lengths. */
int gp_index_tree_query_host(const gp_index *ix, const gp_tree_batch *b, const gp_budget *budget, gp_answers *out,
                             gp_error *err);

#endif
