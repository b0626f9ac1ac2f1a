/* Query trees on the device (opencl/gp_cl_tree.c; query/gp_tree_program.h writes the programs):
 * each query's candidates are the docs of its cover lists (what every match of the tree holds
 * one of), merged and made unique by index.cl's OR passes, then one work-item a candidate runs
 * its tree's program at that doc: the nodes in postorder over a stack of truths, a leaf finding
 * its items' postings by binary search, then its phrases' instances and its NEAR window in the
 * positions, as the host's walk (query/gp_tree_query.c) defines them.
 *
 * A program (words from qt[prog_at_off + q]): its node count, then three words a node, in
 * postorder: kind | count << 8, an argument (a leaf: where its data starts in the program), its
 * parent | 1 << 31 for a NOT's second operand. A leaf's data: its NEAR distance, flags (1: a
 * column set follows, 8 words; 2: positions are checked), its phrase count, its first phrase's
 * number in the tree, then each phrase: items | initial << 16, and each item: its term, or
 * IX_TREE_GROUP | k and a prefix's k terms (the item holds a position when one of them does).
 *
 * Ranked (index_tree_rank): FTS5's bm25() over the tree's phrases, each counted where its branch
 * of the tree matches the doc (every ancestor matches, none through a NOT's second operand): a
 * phrase's frequency its instances there (a NEAR group's: those FTS5's trimming keeps), each its
 * column's weight; the IDFs come from the host, two words a phrase from qt[idf_at_off + q].
 *
 * A batch's selection (words from qt[sel_off]; query/gp_tree_query.h's filters, prior and order):
 * its filter count, the prior's attribute (IX_TREE_NO_ATTR: none) and weight (two words), the
 * order's attribute (IX_TREE_NO_ATTR: none) and whether it is descending, then each filter in
 * eight words: its attribute, its set's size (0: a range) and first word, a word unused, the
 * range's ends (two words each); a set's values are increasing, two words each. Attribute a of
 * doc x is attrs[a * attr_docs + x] (a double's bits; NaN, or x past attr_docs: none). */

#define IX_TREE_LEAF 1u
#define IX_TREE_AND 2u
#define IX_TREE_OR 3u
#define IX_TREE_NOT 4u
#define IX_TREE_NONE 5u
#define IX_TREE_STACK 32
#define IX_TREE_ITEMS 16
#define IX_TREE_PHRASES 8
#define IX_TREE_NO_TERM 0xFFFFFFFFu
#define IX_TREE_GROUP 0x80000000u    /* an item of a prefix's terms (their count below it) */
#define IX_TREE_POSTS 32             /* a leaf's terms, a prefix's each counted */
#define IX_TREE_BEFORE ((long)INT_MIN - 1)   /* before any position */
#define IX_TREE_END LONG_MAX                 /* after every position */
#define IX_TREE_START 0xFFFFFFFFu            /* a cursor not yet moved */
#define IX_TREE_ENTRY 3
#define IX_TREE_ROOT 0x7FFFFFFFu
#define IX_TREE_RANKED_PHRASES 32
#define IX_TREE_NO_ATTR 0xFFFFFFFFu
#define IX_TREE_SEL_FILTERS 6
#define IX_TREE_FILTER_WORDS 8
/* positions of an index of documents: column << 20 | offset from 1 (index/gp_index.h) */
#define IX_COLUMN_SHIFT 20
#define IX_COLUMN_TOKENS 0xFFFFFu

/* A start as FTS5 holds it (column << 32 | offset from 0): what NEAR compares. */
static long ix_fts5_position(long s, uint columns)
{
	if (!columns) return s - 1;
	/* as the host's fts5_position computes it, for any position a file holds */
	return (long)((ulong)(s >> IX_COLUMN_SHIFT) << 32) | ((s & (long)IX_COLUMN_TOKENS) - 1);
}

/* A leaf at a doc: the postings of that doc in its items' lists (a prefix's item: each of its
 * terms' that holds the doc), item j's post[pb[j] .. pb[j + 1]); phrase p's items
 * first[p] .. first[p + 1], bit p of initial set for ^. (Bytes where they fit: a work-item's
 * private arrays stay small.) */
typedef struct ix_leaf_doc {
	uint post[IX_TREE_POSTS];
	uchar pb[IX_TREE_ITEMS + 1];
	uchar first[IX_TREE_PHRASES + 1];
	uint initial;
} ix_leaf_doc;

/* Whether item j holds position s (any of its postings). */
static int ix_item_has(__global const uint *pos_at, __global const int *positions, const ix_leaf_doc *L, uint j, long s)
{
	for (uint k = L->pb[j]; k < L->pb[j + 1]; k++) {
		if (ix_has_position(positions, pos_at[L->post[k]], pos_at[L->post[k] + 1], s)) return 1;
	}
	return 0;
}

/* Item j's least position after v (IX_TREE_END when none): its postings' positions merged, a
 * position two terms share once (as the host merges a prefix's). */
static long ix_item_next(__global const uint *pos_at, __global const int *positions, const ix_leaf_doc *L, uint j, long v)
{
	long least = IX_TREE_END;
	for (uint k = L->pb[j]; k < L->pb[j + 1]; k++) {
		uint lo = pos_at[L->post[k]], hi = pos_at[L->post[k] + 1];
		while (lo < hi) {
			uint mid = lo + (hi - lo) / 2;
			if ((long)positions[mid] <= v) lo = mid + 1; else hi = mid;
		}
		if (lo < pos_at[L->post[k] + 1] && (long)positions[lo] < least) least = (long)positions[lo];
	}
	return least;
}

/* Item j's next position after v (the last this gave, or IX_TREE_BEFORE with *k = IX_TREE_START
 * for its first): an item of one posting steps through its positions by index *k, as the host's
 * cursor does; a prefix's several merge theirs (ix_item_next). */
static long ix_item_step(__global const uint *pos_at, __global const int *positions, const ix_leaf_doc *L, uint j, long v,
                         uint *k)
{
	if (L->pb[j + 1] - L->pb[j] != 1) return ix_item_next(pos_at, positions, L, j, v);
	uint post = L->post[L->pb[j]];
	*k = *k == IX_TREE_START ? pos_at[post] : *k + 1;
	return *k < pos_at[post + 1] ? (long)positions[*k] : IX_TREE_END;
}

/* Item j's positions (its postings' together; a posting's count when positions are not held). */
static uint ix_item_count(__global const uint *pos_at, const ix_leaf_doc *L, uint j)
{
	uint m = 0;
	for (uint k = L->pb[j]; k < L->pb[j + 1]; k++) m += pos_at[L->post[k] + 1] - pos_at[L->post[k]];
	return m;
}

/* Whether phrase p starts an instance at s (every item but `skip` holds its place: the caller
 * knows that one does), in the leaf's columns, and at a column's first token for ^. */
static int ix_instance(__global const uint *pos_at, __global const int *positions, const ix_leaf_doc *L, uint p, uint skip,
                       __global const uint *cols, uint columns, long s)
{
	if (cols) {
		uint c = (uint)s >> IX_COLUMN_SHIFT;
		if (c >= 256u || !((cols[c >> 5] >> (c & 31u)) & 1u)) return 0;
	}
	uint i0 = L->first[p], n = L->first[p + 1] - i0, initial = (L->initial >> p) & 1u;
	if (initial && (columns ? ((uint)s & IX_COLUMN_TOKENS) != 1u : s != 1)) return 0;
	for (uint j = 0; j < n; j++) {
		if (j == skip) continue;
		if (!ix_item_has(pos_at, positions, L, i0 + j, s + (long)j)) return 0;
	}
	return 1;
}

/* Phrase p's first instance that starts after v, the last this gave (IX_TREE_BEFORE with *k =
 * IX_TREE_START: its first; IX_TREE_END when none). */
static long ix_next_instance(__global const uint *pos_at, __global const int *positions, const ix_leaf_doc *L, uint p,
                             __global const uint *cols, uint columns, long v, uint *k)
{
	long s = ix_item_step(pos_at, positions, L, L->first[p], v, k);
	while (s != IX_TREE_END && !ix_instance(pos_at, positions, L, p, 0u, cols, columns, s)) {
		s = ix_item_step(pos_at, positions, L, L->first[p], s, k);
	}
	return s;
}

/* The leaf's phrases (np of them, from w) at doc x into L; 0 when an item's lists lack x. An
 * item's word is its term, IX_TREE_NO_TERM, or IX_TREE_GROUP | k followed by a prefix's k terms. */
static int ix_leaf_postings(__global const uint *docs, __global const uint *list_at, __global const uint *w, uint np,
                            uint x, ix_leaf_doc *L)
{
	uint ni = 0, nk = 0;
	L->initial = 0;
	for (uint p = 0; p < np; p++) {
		uint n = w[0] & 0xFFFFu;
		L->initial |= (w[0] >> 16 & 1u) << p;
		L->first[p] = (uchar)ni;
		w++;
		for (uint j = 0; j < n; j++, ni++) {
			uint t = *w++;
			if (t == IX_TREE_NO_TERM) return 0;
			uint k = 1;
			__global const uint *terms = w - 1;
			if (t & IX_TREE_GROUP) {
				k = t & ~IX_TREE_GROUP;
				terms = w;
				w += k;
			}
			L->pb[ni] = (uchar)nk;
			for (uint g = 0; g < k; g++) {
				uint lo = list_at[terms[g]], hi = list_at[terms[g] + 1];
				uint at = ix_lower_bound(docs, lo, hi, x);
				if (at < hi && docs[at] == x && nk < IX_TREE_POSTS) L->post[nk++] = at;   /* (the host keeps to the room) */
			}
			if (L->pb[ni] == nk) return 0;
		}
	}
	L->pb[ni] = (uchar)nk;
	L->first[np] = (uchar)ni;
	return 1;
}

/* The item of phrase p with the fewest positions at the doc (an instance is searched from it). */
static uint ix_anchor(__global const uint *pos_at, const ix_leaf_doc *L, uint p)
{
	uint n = L->first[p + 1] - L->first[p], a = 0, least = 0xFFFFFFFFu;
	for (uint j = 0; j < n; j++) {
		uint m = ix_item_count(pos_at, L, L->first[p] + j);
		if (m < least) {
			least = m;
			a = j;
		}
	}
	return a;
}

/* Whether the leaf matches doc x. */
static int ix_tree_leaf(__global const uint *docs, __global const uint *list_at, __global const uint *pos_at,
                        __global const int *positions, __global const uint *leaf, uint x, uint columns)
{
	uint near = leaf[0], flags = leaf[1], np = leaf[2];
	__global const uint *cols = (flags & 1u) ? leaf + 4 : 0;
	__global const uint *w = leaf + 4 + ((flags & 1u) ? 8 : 0);
	ix_leaf_doc L;
	if (!ix_leaf_postings(docs, list_at, w, np, x, &L)) return 0;
	if (!(flags & 2u)) return 1;
	if (np == 1) {
		/* one phrase: any instance, from the item with the fewest positions */
		uint a = ix_anchor(pos_at, &L, 0), j = L.first[0] + a, k = IX_TREE_START;
		for (long v = ix_item_step(pos_at, positions, &L, j, IX_TREE_BEFORE, &k); v != IX_TREE_END;
		     v = ix_item_step(pos_at, positions, &L, j, v, &k)) {
			if (ix_instance(pos_at, positions, &L, 0, a, cols, columns, v - (long)a)) return 1;
		}
		return 0;
	}
	/* a NEAR group: a window where every phrase has an instance at most `near` tokens (and its
	 * own length) before the group's last, walked as near_trim's search walks its lists */
	long cur[IX_TREE_PHRASES];
	uint at_k[IX_TREE_PHRASES];
	for (uint p = 0; p < np; p++) {
		at_k[p] = IX_TREE_START;
		cur[p] = ix_next_instance(pos_at, positions, &L, p, cols, columns, IX_TREE_BEFORE, &at_k[p]);
		if (cur[p] == IX_TREE_END) return 0;
	}
	long hi = ix_fts5_position(cur[0], columns);
	for (;;) {
		int match = 1;
		for (uint p = 0; p < np; p++) {
			long lo = hi - (long)(L.first[p + 1] - L.first[p]) - (long)near;
			long at = ix_fts5_position(cur[p], columns);
			if (at < lo || at > hi) {
				match = 0;
				while (at < lo) {
					cur[p] = ix_next_instance(pos_at, positions, &L, p, cols, columns, cur[p], &at_k[p]);
					if (cur[p] == IX_TREE_END) return 0;
					at = ix_fts5_position(cur[p], columns);
				}
				if (at > hi) hi = at;
			}
		}
		if (match) return 1;
	}
}

#ifdef cl_khr_fp64
static double ix_attribute(__global const ulong *attrs, uint attr_docs, uint a, uint x)
{
	return x < attr_docs ? as_double(attrs[(ulong)a * attr_docs + x]) : NAN;
}

static double ix_word_double(__global const uint *w)
{
	return as_double(upsample(w[1], w[0]));
}

/* Whether doc x passes every filter of the selection sel (a doc without the attribute: none). */
static int ix_tree_passes(__global const ulong *attrs, uint attr_docs, __global const uint *qt, __global const uint *sel,
                          uint x)
{
	for (uint f = 0; f < sel[0]; f++) {
		__global const uint *e = sel + IX_TREE_SEL_FILTERS + IX_TREE_FILTER_WORDS * f;
		double v = ix_attribute(attrs, attr_docs, e[0], x);
		uint n = e[1];
		if (n == 0) {
			if (!(v >= ix_word_double(e + 4) && v <= ix_word_double(e + 6))) return 0;
			continue;
		}
		__global const uint *set = qt + e[2];
		uint lo = 0, hi = n;   /* the first value at least v */
		while (lo < hi) {
			uint mid = lo + (hi - lo) / 2;
			if (ix_word_double(set + 2 * mid) < v) lo = mid + 1;
			else hi = mid;
		}
		if (!(lo < n && ix_word_double(set + 2 * lo) == v)) return 0;
	}
	return 1;
}

/* A double as a key that orders as the double does (index_top_k takes the largest; a match's key
 * is never 0): the sign bit flipped on, or every bit of a negative flipped; -0 as 0. */
static ulong ix_sortable_key(double v)
{
	ulong bits = as_ulong(v == 0.0 ? 0.0 : v);
	return (bits >> 63) ? ~bits : bits | ((ulong)1 << 63);
}
#endif

/* An inner node's truth from its children's on the stack (popped): AND, OR, or NOT (its first
 * operand and not its second); 0 for an empty node. */
static uchar ix_tree_combine(uint kind, uint count, uchar *stack, uint *sp)
{
	if (kind == IX_TREE_AND || kind == IX_TREE_OR) {
		uchar all = 1, any = 0;
		for (uint c = 0; c < count; c++) {
			uchar b = stack[--*sp];
			all &= b;
			any |= b;
		}
		return kind == IX_TREE_AND ? all : any;
	}
	if (kind == IX_TREE_NOT) {
		uchar b = stack[--*sp], a = stack[--*sp];
		return a && !b;
	}
	return 0;
}

/* After index_or_merge over each query's cover lists: keep[i] = 1 when candidate i is the first
 * of its doc in its query and the query's tree matches it. */
__kernel void index_tree(__global const uint *docs, __global const uint *list_at, __global const uint *pos_at,
                         __global const int *positions, __global const uint *qt, const uint starts_off,
                         const uint prog_at_off, const uint n_queries, const uint n_items, const uint columns,
                         __global const ulong *attrs, const uint attr_docs, const uint sel_off, __global const uint *cand,
                         __global uint *keep)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	uint q = ix_segment_of(qt + starts_off, n_queries, i);
	uint x = cand[i];
	if (i != qt[starts_off + q] && cand[i - 1] == x) {
		keep[i] = 0;
		return;
	}
	__global const uint *prog = qt + qt[prog_at_off + q];
	uint n_nodes = prog[0], sp = 0;
	uchar stack[IX_TREE_STACK];
	for (uint k = 0; k < n_nodes; k++) {
		__global const uint *e = prog + 1 + IX_TREE_ENTRY * k;
		uint kind = e[0] & 0xFFu, count = e[0] >> 8, arg = e[1];
		uchar v;
		if (kind == IX_TREE_LEAF) {
			v = (uchar)ix_tree_leaf(docs, list_at, pos_at, positions, prog + arg, x, columns);
		} else {
			v = ix_tree_combine(kind, count, stack, &sp);
		}
		stack[sp++] = v;
	}
	uint match = sp == 1 ? stack[0] : 0u;
	__global const uint *sel = qt + sel_off;
#ifdef cl_khr_fp64
	if (match && sel[0]) match = (uint)ix_tree_passes(attrs, attr_docs, qt, sel, x);
#else
	if (sel[0]) match = 0;   /* filters need doubles: the host does not send them here */
#endif
	keep[i] = match;
}

/* A ranked leaf at doc x: whether it matches, each of its phrases' frequency into freq (from its
 * first phrase's number): all a lone phrase's instances, or those of a NEAR group that FTS5's
 * trimming keeps (near_trim's walk, by cursors over each phrase's instances), each instance its
 * column's weight (weights[c], 1 past n_weights); without positions, the postings' tf. */
static int ix_tree_leaf_freq(__global const uint *docs, __global const uint *list_at, __global const uint *pos_at,
                             __global const int *positions, __global const uint *leaf, uint x, uint columns,
                             uint positional, __global const uint *weights, uint n_weights, double *freq)
{
	uint near = leaf[0], flags = leaf[1], np = leaf[2], fp = leaf[3];
	__global const uint *cols = (flags & 1u) ? leaf + 4 : 0;
	__global const uint *w = leaf + 4 + ((flags & 1u) ? 8 : 0);
	ix_leaf_doc L;
	if (!ix_leaf_postings(docs, list_at, w, np, x, &L)) return 0;
	if (!(flags & 2u)) {
		/* one item: its postings' tf summed (a prefix's terms', as the host merges them) */
		double f = 0.0;
		for (uint k = L.pb[0]; k < L.pb[1]; k++) f += positional ? (double)max(pos_at[L.post[k] + 1] - pos_at[L.post[k]], 1u) : 1.0;
		freq[fp] = f;
		return 1;
	}
	if (np == 1) {
		uint a = ix_anchor(pos_at, &L, 0), j = L.first[0] + a, k = IX_TREE_START;
		double f = 0.0;
		uint found = 0;
		for (long v = ix_item_step(pos_at, positions, &L, j, IX_TREE_BEFORE, &k); v != IX_TREE_END;
		     v = ix_item_step(pos_at, positions, &L, j, v, &k)) {
			long s = v - (long)a;
			if (!ix_instance(pos_at, positions, &L, 0, a, cols, columns, s)) continue;
			ulong c = (ulong)ix_fts5_position(s, columns) >> 32;
			f += c < n_weights ? as_double(upsample(weights[2 * c + 1], weights[2 * c])) : 1.0;
			found++;
		}
		freq[fp] = f;
		return found > 0;
	}
	/* nxt[p]: the last instance phrase p's cursor (at_k[p]) gave */
	long cur[IX_TREE_PHRASES], nxt[IX_TREE_PHRASES], last[IX_TREE_PHRASES];
	uint kept[IX_TREE_PHRASES], at_k[IX_TREE_PHRASES];
	for (uint p = 0; p < np; p++) {
		at_k[p] = IX_TREE_START;
		cur[p] = ix_next_instance(pos_at, positions, &L, p, cols, columns, IX_TREE_BEFORE, &at_k[p]);
		if (cur[p] == IX_TREE_END) return 0;
		nxt[p] = ix_next_instance(pos_at, positions, &L, p, cols, columns, cur[p], &at_k[p]);
		kept[p] = 0;
		last[p] = 0;
		freq[fp + p] = 0.0;
	}
	for (;;) {
		long hi = ix_fts5_position(cur[0], columns);
		int match;
		do {
			match = 1;
			for (uint p = 0; p < np; p++) {
				long lo = hi - (long)(L.first[p + 1] - L.first[p]) - (long)near;
				long at = ix_fts5_position(cur[p], columns);
				if (at < lo || at > hi) {
					match = 0;
					while (at < lo) {
						cur[p] = nxt[p];
						if (cur[p] == IX_TREE_END) goto done;
						nxt[p] = ix_next_instance(pos_at, positions, &L, p, cols, columns, cur[p], &at_k[p]);
						at = ix_fts5_position(cur[p], columns);
					}
					if (at > hi) hi = at;
				}
			}
		} while (!match);
		for (uint p = 0; p < np; p++) {
			long at = ix_fts5_position(cur[p], columns);
			if (kept[p] == 0 || at != last[p]) {
				kept[p]++;
				last[p] = at;
				ulong c = (ulong)at >> 32;
				freq[fp + p] += c < n_weights ? as_double(upsample(weights[2 * c + 1], weights[2 * c])) : 1.0;
			}
		}
		/* on from the instance whose next comes first (ties: the first phrase) */
		uint adv = 0;
		long least = nxt[0] != IX_TREE_END ? ix_fts5_position(nxt[0], columns) : LONG_MAX;
		for (uint p = 1; p < np; p++) {
			long nx = nxt[p] != IX_TREE_END ? ix_fts5_position(nxt[p], columns) : LONG_MAX;
			if (nx < least) {
				least = nx;
				adv = p;
			}
		}
		cur[adv] = nxt[adv];
		if (cur[adv] == IX_TREE_END) break;
		nxt[adv] = ix_next_instance(pos_at, positions, &L, adv, cols, columns, cur[adv], &at_k[adv]);
	}
done:
	return kept[0] > 0;
}

/* Ranked trees, after index_or_merge over their covers: keys[i] = the sortable key of the score
 * (bm25() plus the selection's prior; or the order's attribute, negated ascending, none as -inf)
 * when candidate i is the first of its doc and its tree matches and it passes the selection's
 * filters (0 otherwise: no match). */
__kernel void index_tree_rank(__global const uint *docs, __global const uint *list_at, __global const uint *pos_at,
                              __global const int *positions, __global const uint *doc_len, __global const uint *qt,
                              const uint starts_off, const uint prog_at_off, const uint idf_at_off,
                              const uint weights_off, const uint n_weights, const uint n_queries, const uint n_items,
                              const uint columns, const uint positional, const ulong k1_bits, const ulong b_bits,
                              const ulong avgdl_bits, __global const ulong *attrs, const uint attr_docs, const uint sel_off,
                              __global const uint *cand, __global ulong *keys)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	ulong key = 0;
#ifdef cl_khr_fp64
	uint q = ix_segment_of(qt + starts_off, n_queries, i);
	uint x = cand[i];
	__global const uint *sel = qt + sel_off;
	const uint order = sel[4];
	if (i == qt[starts_off + q] || cand[i - 1] != x) {
		__global const uint *prog = qt + qt[prog_at_off + q];
		__global const uint *weights = qt + weights_off;
		uint n_nodes = prog[0], sp = 0, n_phrases = 0;
		uchar stack[IX_TREE_STACK];
		ulong matched = 0, counted = 0;
		double freq[IX_TREE_RANKED_PHRASES];
		for (uint p = 0; p < IX_TREE_RANKED_PHRASES; p++) freq[p] = 0.0;
		for (uint k = 0; k < n_nodes; k++) {
			__global const uint *e = prog + 1 + IX_TREE_ENTRY * k;
			uint kind = e[0] & 0xFFu, count = e[0] >> 8, arg = e[1];
			uchar v;
			if (kind == IX_TREE_LEAF) {
				__global const uint *leaf = prog + arg;
				/* ordered by an attribute: only whether it matches */
				v = order != IX_TREE_NO_ATTR ? (uchar)ix_tree_leaf(docs, list_at, pos_at, positions, leaf, x, columns)
				                             : (uchar)ix_tree_leaf_freq(docs, list_at, pos_at, positions, leaf, x, columns,
				                                                        positional, weights, n_weights, freq);
				n_phrases = max(n_phrases, leaf[3] + leaf[2]);
			} else {
				v = ix_tree_combine(kind, count, stack, &sp);
			}
			stack[sp++] = v;
			if (v) matched |= (ulong)1 << k;
		}
		if (sp == 1 && stack[0] && ix_tree_passes(attrs, attr_docs, qt, sel, x)) {
			if (order != IX_TREE_NO_ATTR) {
				double v = ix_attribute(attrs, attr_docs, order, x);
				key = ix_sortable_key(v != v ? -INFINITY : sel[5] ? v : -v);
				keys[i] = key;
				return;
			}
			/* counted from the root down: a node that matches, whose parent is counted, and not
			 * a NOT's second operand */
			for (uint k = n_nodes; k-- > 0;) {
				uint up = prog[1 + IX_TREE_ENTRY * k + 2], parent = up & IX_TREE_ROOT;
				int in = ((matched >> k) & 1) && !(up >> 31) && (parent == IX_TREE_ROOT || ((counted >> parent) & 1));
				if (in) counted |= (ulong)1 << k;
			}
			double k1 = as_double(k1_bits), b = as_double(b_bits), avgdl = as_double(avgdl_bits);
			double dl = (double)doc_len[x], score = 0.0;
			__global const uint *idf = qt + qt[idf_at_off + q];
			/* each counted leaf's phrases, in the tree's order of phrases */
			for (uint p = 0; p < n_phrases; p++) {
				double f = 0.0;
				for (uint k = 0; k < n_nodes; k++) {
					__global const uint *e = prog + 1 + IX_TREE_ENTRY * k;
					if ((e[0] & 0xFFu) != IX_TREE_LEAF || !((counted >> k) & 1)) continue;
					__global const uint *leaf = prog + e[1];
					if (p >= leaf[3] && p < leaf[3] + leaf[2]) f = freq[p];
				}
				if (f != 0.0) {
					double w = ix_word_double(idf + 2 * p);
					score += w * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * dl / avgdl)));
				}
			}
			if (sel[1] != IX_TREE_NO_ATTR) {   /* the prior: its weight times the doc's value (none: 0) */
				double v = ix_attribute(attrs, attr_docs, sel[1], x);
				score += v == v ? ix_word_double(sel + 2) * v : 0.0;
			}
			key = ix_sortable_key(score);
		}
	}
#endif
	keys[i] = key;
}
