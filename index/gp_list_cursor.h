/* A cursor over one list of an index, whichever way the index holds it: decoded arrays (an index
 * built, or read from a version 1 file), or version 2 blocks read where they lie in a mapped
 * file. What the host's operators walk (query/gp_query.c), as PISA's algorithms walk theirs:
 * the doc it is at, the next posting, the first posting whose doc is at least x (a binary search
 * of the skip entries, then Elias-Fano's upper bits: no block is decoded to find it), the
 * posting's tf and positions. A version 2 list is read only after it was checked
 * (gp_index_v2_ready). */
#ifndef GP_LIST_CURSOR_H
#define GP_LIST_CURSOR_H

#include "gp_index_v2.h"

/* A block is decoded at its (GP_CURSOR_DECODE_AFTER + 1)-th search: one decode costs about
 * what that many searches from the upper bits do. An AND's list at most GP_CURSOR_EAGER_RATIO
 * times its shortest's length expects at least GP_BLOCK / GP_CURSOR_EAGER_RATIO candidates in
 * each of its blocks, so decodes each block it enters at once. */
#define GP_CURSOR_DECODE_AFTER 8
#define GP_CURSOR_EAGER_RATIO 16
/* A decoded block's counts are unpacked all at once at the (GP_CURSOR_COUNT_AFTER + 1)-th read. */
#define GP_CURSOR_COUNT_AFTER 8
#define GP_CURSOR_SCAN 16     /* docs a search within a decoded block compares at once */

typedef struct gp_list_cursor {
	uint64_t i, n;            /* at posting i of n (i == n: past the end) */
	uint32_t doc;             /* posting i's doc, while i < n */
	uint32_t term;
	const gp_index *ix;
	const uint32_t *docs;     /* decoded: the list's docs; NULL for a version 2 list */
	uint64_t first;           /* decoded: the list's first posting in the index's arrays */
	/* version 2 */
	const uint8_t *data;      /* the term's skip entries, then its blocks */
	size_t data_len;
	uint32_t blocks, b, bi;   /* blocks; the one it is in; the posting in it */
	uint32_t last;            /* the block's last doc */
	uint64_t upos;            /* posting bi's upper bit */
	uint32_t gaps_bi;         /* positions: the gaps before posting gaps_bi of the block ... */
	uint64_t gaps_sum;        /* ... are gaps_sum */
	int counted;              /* the block's counts and gaps before each in counts, gaps_before
	                           * (made when a decoded block's counts are read) */
	int decoded;              /* the block's docs are in buf (read in turn: next; or searched
	                           * again: geq); else found from the upper bits, upos kept */
	uint32_t searches;        /* geq's in this block */
	uint32_t count_reads;     /* position counts read in this block one at a time */
	int eager;                /* decode each block it enters (a cursor that will read many of
	                           * its postings: an AND's shortest list, and those not much longer) */
	gp_block blk;
	uint32_t buf[GP_BLOCK_DOCS_ROOM + GP_CURSOR_SCAN];   /* a decoded block's docs, then UINT32_MAX */
	uint32_t counts[GP_BLOCK];
	uint64_t gaps_before[GP_BLOCK];
} gp_list_cursor;

/* The first index in a[lo..n) whose value is >= x: doubling steps from lo, then a binary search. */
static inline uint64_t gp_gallop(const uint32_t *a, uint64_t lo, uint64_t n, uint32_t x)
{
	uint64_t hi = lo, step = 1;
	while (hi < n && a[hi] < x) {
		lo = hi + 1;
		hi += step;
		step <<= 1;
	}
	if (hi > n) hi = n;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (a[mid] < x) lo = mid + 1; else hi = mid;
	}
	return lo;
}

/* The first posting from bi on in a decoded block whose doc is at least x (x at most the block's
 * last): the next GP_CURSOR_SCAN docs compared at once (no branch on each; the docs past the
 * block's are UINT32_MAX), then galloping where x lies further. */
static inline uint32_t gp_cursor_search_decoded(const struct gp_list_cursor *c, uint32_t bi, uint32_t x)
{
	const uint32_t *a = c->buf + bi;
#ifdef __SSE2__
	/* unsigned order as signed: each side's top bit flipped; the docs below x are a prefix */
	const __m128i flip = _mm_set1_epi32(INT32_MIN), xv = _mm_xor_si128(_mm_set1_epi32((int)x), flip);
	uint32_t below_mask = 0;
	for (uint32_t k = 0; k < GP_CURSOR_SCAN; k += 4) {
		__m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(a + k)), flip);
		below_mask |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(v, xv))) << k;
	}
	const uint32_t below = (uint32_t)__builtin_ctz(~below_mask);
#else
	uint32_t below = 0;
	for (uint32_t k = 0; k < GP_CURSOR_SCAN; k++) below += a[k] < x;
#endif
	if (below < GP_CURSOR_SCAN) return bi + below;
	return (uint32_t)gp_gallop(c->buf, bi + GP_CURSOR_SCAN, c->blk.n, x);
}

/* Moves within the decoded block to the first posting whose doc is at least x (at most its last). */
static inline void gp_cursor_seek_decoded(struct gp_list_cursor *c, uint32_t x)
{
	c->bi = gp_cursor_search_decoded(c, c->bi, x);
	c->doc = c->buf[c->bi];
	c->i = (uint64_t)c->b * GP_BLOCK + c->bi;
}

static inline uint32_t gp_cursor_skip_last(const gp_list_cursor *c, uint32_t b)
{
	return gp_load_le32(c->data + (size_t)b * GP_V2_SKIP);
}

/* Enters block b at its first posting. */
static inline void gp_cursor_enter(gp_list_cursor *c, uint32_t b)
{
	const uint8_t *e = c->data + (size_t)b * GP_V2_SKIP;
	uint64_t base = b ? (uint64_t)gp_cursor_skip_last(c, b - 1) + 1 : 0, last = gp_load_le32(e);
	uint64_t off = gp_load_le32(e + 4), end = b + 1 < c->blocks ? gp_load_le32(e + GP_V2_SKIP + 4) : c->data_len;
	uint32_t n = b + 1 < c->blocks ? GP_BLOCK : (uint32_t)(c->n - (uint64_t)b * GP_BLOCK);
	gp_block_open(&c->blk, c->data + off, (size_t)(end - off), base, last - base, n, c->ix->positional);
	c->b = b;
	c->last = (uint32_t)last;
	c->bi = 0;
	c->i = (uint64_t)b * GP_BLOCK;
	c->gaps_bi = 0;
	c->gaps_sum = 0;
	c->decoded = 0;
	c->counted = 0;
	c->searches = 0;
	c->count_reads = 0;
	c->upos = gp_block_next_one(&c->blk, 0);
	c->doc = (uint32_t)gp_block_doc(&c->blk, 0, c->upos);
}

/* The block's docs decoded: what a cursor read in turn reads. */
static inline void gp_cursor_decode(gp_list_cursor *c)
{
	gp_block_docs(&c->blk, c->buf);
	for (uint32_t k = 0; k < GP_CURSOR_SCAN; k++) c->buf[c->blk.n + k] = UINT32_MAX;
	c->decoded = 1;
}

static inline void gp_cursor_open(gp_list_cursor *c, const gp_index *ix, uint32_t t)
{
	c->ix = ix;
	c->term = t;
	c->i = 0;
	c->eager = 0;
	c->n = gp_index_df(ix, t);
	if (ix->docs) {
		c->first = ix->list_at[t];
		c->docs = ix->docs + c->first;
		c->doc = c->n ? c->docs[0] : 0;
		return;
	}
	const gp_v2 *v = ix->v2;
	c->docs = NULL;
	c->data = v->lists + gp_v2_data_off(v, t);
	c->data_len = (size_t)gp_v2_data_len(v, t, ix->n_terms);
	c->blocks = (uint32_t)((c->n + GP_BLOCK - 1) / GP_BLOCK);
	if (c->n) gp_cursor_enter(c, 0);
}

static inline void gp_cursor_next(gp_list_cursor *c)
{
	if (++c->i >= c->n) return;
	if (c->docs) {
		c->doc = c->docs[c->i];
		return;
	}
	if (++c->bi == c->blk.n) {
		gp_cursor_enter(c, c->b + 1);
		gp_cursor_decode(c);
		return;
	}
	if (!c->decoded) gp_cursor_decode(c);
	c->doc = c->buf[c->bi];
}

/* The first block after the cursor's whose last doc is at least x (blocks: none), from the skip
 * entries: doubling, then halving. */
static inline uint32_t gp_cursor_find_block(const gp_list_cursor *c, uint32_t x)
{
	uint32_t lo = c->b + 1, hi = lo, step = 1;
	while (hi < c->blocks && gp_cursor_skip_last(c, hi) < x) {
		lo = hi + 1;
		hi += step;
		step <<= 1;
	}
	if (hi > c->blocks) hi = c->blocks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (gp_cursor_skip_last(c, mid) < x) lo = mid + 1; else hi = mid;
	}
	return lo;
}

/* What a posting of the list at doc x or after it in the block that would hold x can add to a
 * score, as the term table's bound (its largest tf (k1 + 1) / (tf + k1 (1 - b + b dl /
 * avgdl))): a version 2 block's bound from its skip entry, the term's over decoded arrays; -1
 * when no posting is at least x. The cursor does not move. */
static inline double gp_cursor_block_bound(const gp_list_cursor *c, uint32_t x)
{
	if (c->i >= c->n) return -1.0;
	if (c->docs) return gp_index_max_frac(c->ix, c->term);
	uint32_t b = c->b;
	if (c->last < x && (b = gp_cursor_find_block(c, x)) == c->blocks) return -1.0;
	uint32_t u = gp_load_le32(c->data + (size_t)b * GP_V2_SKIP + 8);
	float f;
	memcpy(&f, &u, 4);
	return (double)f;
}

/* gp_cursor_geq past its block's decoded docs: the skip entries, then the upper bits. */
__attribute__((noinline, unused)) static void gp_cursor_geq_far(gp_list_cursor *c, uint32_t x)
{
	if (c->last < x) {
		uint32_t lo = gp_cursor_find_block(c, x);
		if (lo == c->blocks) {
			c->i = c->n;
			return;
		}
		gp_cursor_enter(c, lo);
		if (c->doc >= x) return;
	}
	/* in this block, whose last doc is at least x: in its decoded docs, or the postings whose
	 * high part is below x's are the ones before the h-th zero of the upper bits; a block
	 * searched many times is decoded once (a search reads a few words of it, a decode all of
	 * it) */
	if (!c->decoded && (c->eager || ++c->searches > GP_CURSOR_DECODE_AFTER)) gp_cursor_decode(c);
	if (c->decoded) {
		gp_cursor_seek_decoded(c, x);
		return;
	}
	gp_block *k = &c->blk;
	uint64_t h = (x - k->base) >> k->l;
	if (h > c->upos - c->bi) {
		/* from the cursor's word: the zeros before it are its bits less the ones before it
		 * (posting bi's one and those before it in the word) */
		const uint64_t w = c->upos >> 6;
		const uint64_t ones = c->bi - gp_popcount64(gp_block_word(k, w) & ((1ull << (c->upos & 63)) - 1));
		uint64_t z = gp_block_select_zero_from(k, h, w, w * 64 - ones);
		uint32_t at = (uint32_t)(z - h + 1);
		if (at > c->bi) {
			c->bi = at;
			c->upos = gp_block_next_one(k, z + 1);
		}
	}
	c->doc = (uint32_t)gp_block_doc(k, c->bi, c->upos);
	while (c->doc < x) {
		c->bi++;
		c->upos = gp_block_next_one(k, c->upos + 1);
		c->doc = (uint32_t)gp_block_doc(k, c->bi, c->upos);
	}
	c->i = (uint64_t)c->b * GP_BLOCK + c->bi;
}

/* Moves to the first posting (from where it is) whose doc is at least x: inline while the doc is
 * in the decoded arrays or in the block's decoded docs. */
static inline void gp_cursor_geq(gp_list_cursor *c, uint32_t x)
{
	if (c->i >= c->n || c->doc >= x) return;
	if (c->docs) {
		c->i = gp_gallop(c->docs, c->i, c->n, x);
		if (c->i < c->n) c->doc = c->docs[c->i];
		return;
	}
	if (c->decoded && x <= c->last) {
		gp_cursor_seek_decoded(c, x);
		return;
	}
	gp_cursor_geq_far(c, x);
}

/* The posting's position count (0: none), and its tf (the count; 1 without positions). */
static inline uint32_t gp_cursor_count(gp_list_cursor *c)
{
	if (!c->ix->positional) return 0;
	if (c->docs) {
		uint64_t p = c->first + c->i, n = c->ix->pos_at[p + 1] - c->ix->pos_at[p];
		return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	}
	/* a block's counts one at a time while few are read (a search's match), then all at once
	 * (a block read in turn: a phrase's candidates, an OR) */
	if (!c->counted && (!c->decoded || ++c->count_reads <= GP_CURSOR_COUNT_AFTER)) return gp_block_count(&c->blk, c->bi);
	if (!c->counted) {
		gp_block_counts(&c->blk, c->counts, c->gaps_before);
		c->counted = 1;
	}
	return c->counts[c->bi];
}

static inline uint32_t gp_cursor_tf(gp_list_cursor *c)
{
	if (c->docs) return gp_index_tf(c->ix, c->first + c->i);
	uint32_t n = gp_cursor_count(c);
	return n ? n : 1;
}

/* The posting's positions, a pointer into the index's arrays or decoded into buf (room for its
 * count); *count set. With `upto` below INT32_MAX, a first part of them that holds every one up
 * to `upto` (a caller that needs no more decodes no more). */
static inline const int32_t *gp_cursor_positions(gp_list_cursor *c, int32_t *buf, int64_t upto, uint32_t *count)
{
	*count = gp_cursor_count(c);
	if (c->docs) return c->ix->positions + c->ix->pos_at[c->first + c->i];
	gp_block *k = &c->blk;
	uint64_t gaps_before;
	if (c->counted) {
		gaps_before = c->gaps_before[c->bi];
	} else {
		if (c->gaps_bi > c->bi) {
			c->gaps_bi = 0;
			c->gaps_sum = 0;
		}
		for (; c->gaps_bi < c->bi; c->gaps_bi++) {
			uint32_t m = gp_block_count(k, c->gaps_bi);
			c->gaps_sum += m ? m - 1 : 0;
		}
		gaps_before = c->gaps_sum;
	}
	if (upto < INT32_MAX) *count = gp_block_positions_upto(k, c->bi, gaps_before, *count, upto, buf);
	else gp_block_positions(k, c->bi, gaps_before, *count, buf);
	return buf;
}

#endif
