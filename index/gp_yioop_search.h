/* Yioop's search over a bundle opened whole (gp_index_yioop_bundle.c): what its PhraseModel gets
 * from one conjunctive word struct (an IntersectIterator of WordIterators and NegationIterators
 * under a GroupIterator, then getSummariesByHash's reciprocal rank fusion), computed from the
 * index's lists and the bundle's doc records, so that the pages come out with Yioop's scores and
 * in its order. The algorithm, quirks included, is docs/YIOOP.md's; what it does not cover is
 * reported (gp_yioop_result.why), never answered differently. */
#ifndef GP_YIOOP_SEARCH_H
#define GP_YIOOP_SEARCH_H

#include "gp_index.h"

/* One word struct as PhraseModel builds it. words: KEYS in query order as term ids (an id past
 * the index's terms where the bundle has no such word: a different one for each different
 * word), repeats included; negated: DISALLOW_KEYS.
 * quotes: QUOTE_POSITIONS, quote q its pairs quote_pairs[2 quote_at[q] .. 2 quote_at[q + 1]) of
 * (position list, words), words -1 for Yioop's "*" gap. weight: WEIGHT. */
typedef struct gp_yioop_query {
	const uint32_t *words;
	size_t n_words;
	const uint32_t *negated;
	size_t n_negated;
	const int32_t *quote_pairs;
	const size_t *quote_at;
	size_t n_quotes;
	double weight;
	/* NULL, or for each word then each negated word (n_words + n_negated entries): NULL, or the
	 * generations where Yioop's iterators see it (what its IndexDictionary lists, and the
	 * active generation's shard), gens[i][0 .. n_gens[i]) increasing. A word's postings in
	 * other generations are then not seen: Yioop's own view of a bundle whose dictionary lost
	 * some (docs/YIOOP.md). */
	const uint32_t *const *gens;
	const size_t *n_gens;
} gp_yioop_query;

/* What the face's language does that Yioop's scores pass through: rounding to `places`
 * decimals as its number formatting does, read back as a number (Yioop keeps DOC_RANK and each
 * part of RELEVANCE so), and the sort its array sort runs (base, n, size, cmp, swap), which orders
 * the ties Yioop's comparator leaves open. */
typedef struct gp_yioop_face {
	double (*round_decimal)(double v, int places);
	void (*sort)(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
	             void (*swap)(void *, void *));
} gp_yioop_face;

/* A page: a URL's group (a doc and the anchor texts of links to it, by the key's first 8
 * bytes), its members' docs members[first .. first + n_members) (the group's order: its first
 * gives the page's fields), the aggregated DOC_RANK, RELEVANCE and PROXIMITY, the sum Yioop ties
 * groups of one content hash by, and the fused SCORE. */
typedef struct gp_yioop_page {
	size_t first, n_members;
	double doc_rank, relevance, proximity, hash_sum_score, score;
	size_t rank_at, n_ranks;  /* its first member's user ranks: ranks[rank_at .. + n_ranks) */
} gp_yioop_page;

typedef struct gp_yioop_result {
	gp_yioop_page *pages;     /* in Yioop's order, n_pages of them */
	size_t n_pages;
	uint64_t *members;
	size_t n_members;
	double *ranks;            /* the pages' user ranks (USER_RANKS: each 2-byte value / 65536) */
	size_t n_rank_values;
	int exhausted;            /* every match walked (Yioop's TOTAL_ROWS is then n_pages) */
	uint64_t matches;         /* the conjunction's matches, all of them (walked or not) */
	const char *why;          /* not NULL: the query or a doc it reaches is outside what this
	                           * covers (pages empty): Yioop's own path answers it */
} gp_yioop_result;

/* Yioop's DOC_RANK of doc d of generation g (IndexShard::makeItem): 10 - log10(doc index + 1 +
 * (links a page + 1) x docs per generation x generation) from the generation's header, rounded
 * to 10 decimals by round_decimal, or the record's archive rank (bits 19-22 of its length;
 * *archive set). */
double gp_yioop_doc_rank(const gp_yioop_docs *y, uint64_t d, size_t g, double (*round_decimal)(double v, int places),
                         int *archive);

/* The most word structs (a query's disjuncts) one search takes. */
#define GP_YIOOP_MAX_STRUCTS 64

/* Answers the query whose disjuncts are qs[0 .. n) (one struct: an IntersectIterator under the
 * GroupIterator; several: their UnionIterator) over ix (an index of a Yioop bundle), until
 * to_retrieve groups (what getSummariesByHash asks: 200 for a first page); walk_order: the
 * pages as the walk found them, each score its HASH_SUM_SCORE (what getSummariesByHash fuses),
 * instead of fused. GP_ENOMEM (the budget counts the walk's arrays), GP_EVALUE (ix is not a
 * bundle's, or a struct is malformed: err says which). r is freed by gp_yioop_result_free
 * whatever the outcome. */
int gp_yioop_search(const gp_index *ix, const gp_yioop_query *qs, size_t n, size_t to_retrieve, int walk_order,
                    const gp_yioop_face *face, const gp_budget *budget, gp_yioop_result *r, gp_error *err);
void gp_yioop_result_free(gp_yioop_result *r);

#endif
