/* Yioop's conjunctive search over a bundle, as its iterators and PhraseModel compute it (Yioop
 * 2021: IndexShard::makeItem, IntersectIterator, NegationIterator, GroupIterator,
 * PhraseModel::getSummariesByHash). Each step follows Yioop's arithmetic in its order, so that
 * the doubles come out the same; docs/YIOOP.md lists the quirks kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_yioop_search.h"

/* Yioop's Config.php defaults that its scores read */
#define Y_TITLE_LENGTH 50        /* AD_HOC_TITLE_LENGTH */
#define Y_TITLE_WEIGHT 4.0
#define Y_DESCRIPTION_WEIGHT 1.0
#define Y_LINKS_PER_PAGE 24      /* AVG_LINKS_PER_PAGE */
#define Y_PRECISION 10
#define Y_GROUP 200.0            /* MIN_RESULTS_TO_GROUP */
#define Y_NEEDS_OFFSET 0x7FFFFFFFu
#define Y_LINK_FLAG 0x800000u

#define YS_NAME "Yioop search"
/* the most values one doc's aux keys hold (117 keys of 8 bytes, 2 bytes a value) */
#define Y_AUX_VALUES 512
/* the most steps of a query's quote checks: each "*" gap tries every later position of its
 * word, so that gaps multiply the work (Yioop's checkQuote has no bound) */
#define Y_QUOTE_STEPS (1u << 22)

/* --- small sets of 8-byte keys (a URL's hash, a content hash) --- */

typedef struct key_set {
	uint64_t *slot;   /* key + 1 would collide with 0: keys are stored with `used` beside */
	uint8_t *used;
	size_t cap, n;
} key_set;

static uint64_t key8(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static size_t key_slot(const key_set *s, uint64_t k)
{
	size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17) & (s->cap - 1);
	while (s->used[i] && s->slot[i] != k) i = (i + 1) & (s->cap - 1);
	return i;
}

static int key_has(const key_set *s, uint64_t k)
{
	return s->cap && s->used[key_slot(s, k)];
}

static int key_add(key_set *s, uint64_t k)
{
	if (2 * (s->n + 1) > s->cap) {
		key_set g = {NULL, NULL, s->cap ? 2 * s->cap : 64, 0};
		g.slot = malloc(g.cap * sizeof(*g.slot));
		g.used = calloc(g.cap, 1);
		if (!g.slot || !g.used) {
			free(g.slot);
			free(g.used);
			return GP_ENOMEM;
		}
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->used[i]) continue;
			size_t j = key_slot(&g, s->slot[i]);
			g.used[j] = 1;
			g.slot[j] = s->slot[i];
			g.n++;
		}
		free(s->slot);
		free(s->used);
		*s = g;
	}
	size_t i = key_slot(s, k);
	if (!s->used[i]) {
		s->used[i] = 1;
		s->slot[i] = k;
		s->n++;
	}
	return GP_OK;
}

static void key_free(key_set *s)
{
	free(s->slot);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

/* --- one doc's item: IndexShard::makeItem's fields for each word, IntersectIterator's sums --- */

typedef struct item {
	uint64_t doc;
	double doc_rank, relevance, proximity, score;
	int skip;   /* its summary offset is Yioop's NEEDS_OFFSET_FLAG: counted in a block, never grouped */
} item;

/* DocIterator: generation g, current and next offsets, the generation's doc records' bytes */
typedef struct doc_it {
	size_t g;
	double c, n, len;
} doc_it;

typedef struct walk {
	const gp_index *ix;
	const gp_yioop_docs *y;
	const gp_yioop_query *q;
	const gp_yioop_face *face;
	int summary_attr;
	size_t n_distinct;
	uint32_t distinct[64];
	size_t map[64];           /* query word i's distinct word (IntersectIterator's word_iterator_map) */
	uint64_t cursor[64];
	uint64_t neg_cursor[64];
	doc_it all[64];           /* each negation's DocIterator */
	int started;              /* the walk with negations has found its first match */
	uint8_t neg_empty[64];    /* a negated word Yioop's iterators find nowhere */
	const uint32_t *seen[128];   /* each distinct then negated word's generations (NULL: all) */
	size_t n_seen[128];
	size_t gen;               /* the generation of the docs walked so far */
	uint64_t next_doc;        /* where the walk goes on */
	/* the position lists of one doc, and the scratch computeProximity works in */
	const int32_t *list[130];
	size_t list_len[130];
	size_t head[130];
	int64_t interval[2 * 130];
	/* the doc's description scores (positions past the title, increasing, and their weights)
	 * and user ranks, from its aux keys */
	size_t n_scores, n_ranks;
	uint32_t score_at[Y_AUX_VALUES];
	double score[Y_AUX_VALUES];
	double rank[Y_AUX_VALUES];
	uint64_t quote_steps;     /* check_quote's steps this query (each "*" gap multiplies them) */
	const char *why;
} walk;

/* docStats: one part of RELEVANCE (Yioop's BM25F-like sum) */
static double doc_stats(const walk *w, double occurrences, double doc_len, double estimate, double average_doc_len,
                        double num_docs, double total, double type_weight)
{
	const double half = 0.5;
	const double doc_ratio = average_doc_len > 0 ? doc_len / average_doc_len : 0;
	const double pre = w->face->number_format(3 * occurrences / (occurrences + half + 1.5 * doc_ratio), Y_PRECISION);
	if (estimate > total) estimate = 0.5 * total;
	const double term_docs = estimate * num_docs / total;
	const double idf = log((num_docs - term_docs + half) / (term_docs + half));
	return half * idf * pre * type_weight;
}

/* IndexShard::unpackValues: a count, then that many values, each 2 bytes in PHP's pack("S")
 * order (little-endian where Yioop runs); too few bytes for them: none, the offset unchanged. */
static size_t unpack_values(const uint8_t *p, size_t len, size_t *off, uint32_t *out)
{
	if (len < *off + 2) return 0;
	const size_t n = (size_t)p[*off] | (size_t)p[*off + 1] << 8, next = *off + 2 * (n + 1);
	if (len < next || n > Y_AUX_VALUES) return 0;
	for (size_t i = 0; i < n; i++) out[i] = (uint32_t)p[*off + 2 + 2 * i] | (uint32_t)p[*off + 3 + 2 * i] << 8;
	*off = next;
	return n;
}

/* IndexShard::unpackAuxiliaryDocumentKeys into w: description scores (after "\xFF\xFF": the
 * positions as deltas, then the weights, each / 65536) and user ranks (the same scale). 0, or -1
 * where Yioop's array_combine would fail (counts that differ). */
static int unpack_aux(walk *w, const uint8_t *p, size_t len)
{
	uint32_t v[Y_AUX_VALUES], at[Y_AUX_VALUES];
	size_t off = 0;
	w->n_scores = 0;
	if (len >= 2 && p[0] == 0xFF && p[1] == 0xFF) {
		off = 2;
		const size_t n_at = unpack_values(p, len, &off, at);
		for (size_t i = 1; i < n_at; i++) at[i] += at[i - 1];
		const size_t n_w = unpack_values(p, len, &off, v);
		if (n_at != n_w) return -1;
		/* array_combine: a repeated position keeps its place and takes the later weight */
		for (size_t i = 0; i < n_at; i++) {
			size_t k = 0;
			while (k < w->n_scores && w->score_at[k] != at[i]) k++;
			w->score_at[k] = at[i];
			w->score[k] = v[i] / 65536.0;
			if (k == w->n_scores) w->n_scores++;
		}
	}
	w->n_ranks = unpack_values(p, len, &off, v);
	for (size_t i = 0; i < w->n_ranks; i++) w->rank[i] = v[i] / 65536.0;
	return 0;
}

/* A word's RELEVANCE in a doc (a doc, not a link: makeItem's document branch) from its
 * posting's positions and estimate; weightedCount weighs a description position by the
 * description score of the sentence it falls in (times the title's weight). */
static double word_relevance(const walk *w, const int32_t *pos, size_t n, double estimate, const uint32_t *h,
                             double doc_len)
{
	double title = 0, description = 0;
	const size_t ns = w->n_scores;
	const double last_score = ns > 0 ? Y_TITLE_WEIGHT * w->score[ns - 1] : 1;
	size_t last_index = 0;
	for (size_t i = 0; i < n; i++) {
		if (pos[i] < Y_TITLE_LENGTH) {
			title++;
			continue;
		}
		double weight = 1;
		if (ns > 0 && last_index + 1 >= ns) {
			weight = last_score;
		} else if (ns > 0) {
			size_t next = last_index;
			for (; next + 1 < ns; next++) {
				if ((double)Y_TITLE_LENGTH + w->score_at[next + 1] > pos[i]) break;
			}
			last_index = next;
			weight = last_index + 1 >= ns ? last_score : Y_TITLE_WEIGHT * w->score[last_index];
		}
		description += weight;
	}
	const double num_docs = h[GP_YH_DOCS], total = (double)h[GP_YH_DOCS] + (double)h[GP_YH_LINK_DOCS];
	double average_doc_len = (double)h[GP_YH_LEN_DOCS] / (double)h[GP_YH_DOCS];
	double r = 0;
	if (title > 0) r += doc_stats(w, title, Y_TITLE_LENGTH, estimate, Y_TITLE_LENGTH, num_docs, total, Y_TITLE_WEIGHT);
	if (description > 0) {
		average_doc_len = fmax(average_doc_len - Y_TITLE_LENGTH, 1);
		doc_len = fmax(doc_len - Y_TITLE_LENGTH, 1);
		r += doc_stats(w, description, doc_len, estimate, average_doc_len, num_docs, total, Y_DESCRIPTION_WEIGHT);
	}
	return r;
}

/* sort() of computeProximity's interval: (position, list) pairs compared as PHP compares arrays */
static void interval_sort(int64_t *iv, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t p = iv[2 * i], l = iv[2 * i + 1];
		size_t j = i;
		while (j > 0 && (iv[2 * (j - 1)] > p || (iv[2 * (j - 1)] == p && iv[2 * (j - 1) + 1] > l))) {
			iv[2 * j] = iv[2 * (j - 1)];
			iv[2 * j + 1] = iv[2 * (j - 1) + 1];
			j--;
		}
		iv[2 * j] = p;
		iv[2 * j + 1] = l;
	}
}

/* array_shift of list i where its head equals p, for every list (computeProximity's dedup) */
static void drop_equal_heads(walk *w, size_t n, int64_t p)
{
	for (size_t j = 0; j < n; j++) {
		if (w->head[j] < w->list_len[j] && w->list[j][w->head[j]] == p) w->head[j]++;
	}
}

/* IntersectIterator::computeProximity: a plane sweep over the lists' positions that closes a
 * cover whenever a list's next position passes the interval's right end; covers ending in the
 * title weigh 4, the rest 1, each by 1 / its length. The cover that ends the title run is
 * dropped, as Yioop drops it. */
static double proximity(walk *w, size_t n)
{
	size_t ni = 0;
	for (size_t i = 0; i < n; i++) w->head[i] = 0;
	for (size_t i = 0; i < n; i++) {
		if (w->head[i] >= w->list_len[i]) continue;
		int64_t min = w->list[i][w->head[i]++];
		w->interval[2 * ni] = min;
		w->interval[2 * ni + 1] = (int64_t)i;
		ni++;
		drop_equal_heads(w, n, min);
	}
	if (ni != n) return 0;
	int64_t *iv = w->interval;
	interval_sort(iv, ni);
	double score = 0;
	int in_title = 1;   /* the covers so far all end in the title */
	/* l = array_shift(interval), r = end(interval) */
	int64_t l0 = iv[0], l1 = iv[1];
	memmove(iv, iv + 2, 2 * (ni - 1) * sizeof(*iv));
	ni--;
	int64_t r0 = iv[2 * (ni - 1)];
	#define COVER(a, b) do { \
		const int64_t ca = (a), cb = (b); \
		if (!in_title) score += Y_DESCRIPTION_WEIGHT / (double)(cb - ca + 1); \
		else if (cb < Y_TITLE_LENGTH) score += Y_TITLE_WEIGHT / (double)(cb - ca + 1); \
		else in_title = 0;   /* the first cover past the title: dropped */ \
	} while (0)
	int stop = w->head[l1] >= w->list_len[l1];
	while (!stop) {
		int64_t p = w->list[l1][w->head[l1]++];
		drop_equal_heads(w, n, p);
		int64_t q = iv[0];
		if (p > r0) {
			COVER(l0, r0);
			iv[2 * ni] = p;
			iv[2 * ni + 1] = l1;
			ni++;
		} else if (p < q) {
			memmove(iv + 2, iv, 2 * ni * sizeof(*iv));
			iv[0] = p;
			iv[1] = l1;
			ni++;
		} else {
			iv[2 * ni] = p;
			iv[2 * ni + 1] = l1;
			ni++;
			interval_sort(iv, ni);
		}
		l0 = iv[0];
		l1 = iv[1];
		memmove(iv, iv + 2, 2 * (ni - 1) * sizeof(*iv));
		ni--;
		r0 = iv[2 * (ni - 1)];
		stop = w->head[l1] >= w->list_len[l1];
	}
	COVER(l0, r0);
	#undef COVER
	return score;
}

/* IntersectIterator::checkQuote: whether the quote's words follow each other (list k's position
 * then list k + 1's at that plus k's words), "*" gaps letting the next word come anywhere after.
 * 1 found, 0 a mismatch at a fixed place, -1 none. */
static int check_quote(walk *w, size_t n_lists, const int32_t *pairs, size_t n_pairs, int64_t cur, int star,
                       int64_t next)
{
	if (n_pairs == 0) return 1;
	if (++w->quote_steps > Y_QUOTE_STEPS) {
		w->why = "a quote whose \"*\" gaps take more steps than gpupost walks (Yioop's own walk takes them all)";
		return -1;
	}
	const int32_t index = pairs[0], len = pairs[1];
	if (len < 0) return check_quote(w, n_lists, pairs + 2, n_pairs - 1, cur, 1, 0);
	if (index < 0 || (size_t)index >= n_lists) return -1;   /* Yioop's foreach over no list */
	const int32_t *list = w->list[index];
	const size_t n = w->list_len[index];
	if (star) next = cur + len;
	for (;;) {
		size_t i = 0;
		while (i < n && list[i] < next) i++;
		if (i == n) return -1;
		const int64_t elt = list[i];
		if (!star && elt != next) return 0;
		int check = check_quote(w, n_lists, pairs + 2, n_pairs - 1, elt, 0, elt + len);
		if (check != 0) return check;
		next = elt + len;
	}
}

/* The generation of doc d (docs increase across the generations) */
static size_t doc_generation(const gp_yioop_docs *y, uint64_t d)
{
	size_t lo = 0, hi = y->n_gens;   /* the last g with base[g] <= d */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (y->base[mid] <= d) lo = mid;
		else hi = mid;
	}
	return lo;
}

/* Whether word slot i sees generation g */
static int sees(const walk *w, size_t i, size_t g)
{
	if (!w->seen[i]) return 1;
	size_t lo = 0, hi = w->n_seen[i];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->seen[i][mid] < g) lo = mid + 1;
		else hi = mid;
	}
	return lo < w->n_seen[i] && w->seen[i][lo] == g;
}

/* The doc's item, or 0 with it.skip = -1 when Yioop's WordIterator drops the doc. */
static int make_item(walk *w, uint64_t d, item *it)
{
	const gp_yioop_docs *y = w->y;
	const gp_index *ix = w->ix;
	while (w->gen + 1 < y->n_gens && d >= y->base[w->gen + 1]) w->gen++;
	const uint32_t *h = y->header + GP_YIOOP_HEADER_FIELDS * w->gen;
	const uint64_t x = d - y->base[w->gen];
	const uint32_t doc_int = y->doc_int[d];
	uint32_t n_keys = doc_int & 255u;
	if (n_keys > 120) n_keys = 3;
	uint32_t doc_len = doc_int >> 8;
	const uint8_t *key = y->keys + GP_YIOOP_DOC_KEYS * d;
	memset(it, 0, sizeof(*it));
	it->doc = d;
	if (doc_len & Y_LINK_FLAG) {
		w->why = "a match is a link's anchor text (a link item)";
		return GP_OK;
	}
	if (n_keys < 3) {
		w->why = "a match's doc record has fewer than three keys";
		return GP_OK;
	}
	if (h[GP_YH_DOCS] == 0) {
		w->why = "a match's generation counts no docs in its header (Yioop divides by it)";
		return GP_OK;
	}
	w->n_scores = w->n_ranks = 0;
	if (n_keys > 3 && unpack_aux(w, y->aux + y->aux_at[d], (size_t)(8 * (n_keys - 3))) < 0) {
		w->why = "a match's description scores and their positions differ in number (Yioop's array_combine fails)";
		return GP_OK;
	}
	/* makeItem keeps a 24-byte id; rtrim of its zeros makes it 16 when the host key is zero,
	 * and WordIterator drops an id of fewer than three keys */
	if (n_keys == 3 && key8(key + 16) == 0 && key[15] != 0) {
		it->skip = -1;
		return GP_OK;
	}
	const double summary = gp_index_attribute(ix, (uint32_t)w->summary_attr, (uint32_t)d);
	it->skip = summary == (double)Y_NEEDS_OFFSET;
	const uint32_t pre_rank = doc_len & (0x0Fu << 19);
	if (pre_rank) {
		it->doc_rank = pre_rank >> 19;
		doc_len &= 0x80000u;   /* makeItem's (2 << 19 - 1) */
	} else {
		const double depth = log10((double)(x + 1) + (double)(Y_LINKS_PER_PAGE + 1) *
		                           (double)h[GP_YH_PER_GENERATION] * (double)h[GP_YH_GENERATION]);
		it->doc_rank = w->face->number_format(10 - depth, Y_PRECISION);
	}
	if (it->skip) {
		it->relevance = 1;
	} else {
		double rel[64];
		for (size_t j = 0; j < w->n_distinct; j++) {
			const uint64_t p = w->cursor[j];
			const uint32_t est = y->posting_estimate[p];
			if (est == UINT32_MAX) {
				w->why = "a word's list merged postings of one doc";
				return GP_OK;
			}
			w->list[j] = ix->positions + ix->pos_at[p];
			w->list_len[j] = (size_t)(ix->pos_at[p + 1] - ix->pos_at[p]);
			rel[j] = word_relevance(w, w->list[j], w->list_len[j], est, h, doc_len);
		}
		/* IntersectIterator::findDocsWithWord: the first word's item, then each query word's
		 * RELEVANCE added and its non-empty position list taken; a word repeated (or placed
		 * after one: Yioop compares the map with the word's place) doubles the sum instead */
		const int32_t *lists[130];
		size_t lens[130], n_lists = 1;
		lists[0] = w->list[0];
		lens[0] = w->list_len[0];
		double relevance = rel[0];
		for (size_t i = 1; i < w->q->n_words; i++) {
			if (w->map[i] < i) {
				lists[n_lists] = lists[w->map[i]];
				lens[n_lists++] = lens[w->map[i]];
				relevance += relevance;
			} else {
				const size_t j = w->map[i];
				if (w->list_len[j] > 0) {
					lists[n_lists] = w->list[j];
					lens[n_lists++] = w->list_len[j];
				}
				relevance += rel[j];
			}
		}
		it->relevance = relevance;
		for (size_t i = 0; i < n_lists; i++) {
			w->list[i] = lists[i];
			w->list_len[i] = lens[i];
		}
		if (n_lists > 1) {
			for (size_t k = 0; k < w->q->n_quotes; k++) {
				const size_t a = w->q->quote_at[k], b = w->q->quote_at[k + 1];
				if (check_quote(w, n_lists, w->q->quote_pairs + 2 * a, b - a, 0, 1, 0) < 1) {
					if (w->why) return GP_OK;
					it->skip = -1;   /* not the phrase: no doc */
					return GP_OK;
				}
			}
			it->proximity = proximity(w, n_lists);
		} else {
			it->proximity = 1;
		}
	}
	if (it->skip) it->proximity = 1;
	it->score = it->doc_rank * it->relevance * it->proximity;
	if (w->q->weight != 1) {
		it->doc_rank *= w->q->weight;
		it->relevance *= w->q->weight;
		it->proximity *= w->q->weight;
		it->score *= w->q->weight;
	}
	return GP_OK;
}

/* --- the walk over the conjunction --- */

/* The next doc every word holds (where Yioop sees it), from w->next_doc on: 1 with *d and each
 * word's cursor on it, 0 when none is left. Without negated words Yioop's IntersectIterator
 * finds exactly these, its leapfrog over (generation, doc index) being the docs' order. */
static int next_common(walk *w, uint64_t *d)
{
	const gp_index *ix = w->ix;
	uint64_t want = w->next_doc;
	for (;;) {
		int moved = 0;
		for (size_t j = 0; j < w->n_distinct; j++) {
			const uint32_t t = w->distinct[j];
			uint64_t c = gp_index_first_at_least(ix->docs, w->cursor[j], ix->list_at[t + 1], want);
			w->cursor[j] = c;
			if (c == ix->list_at[t + 1]) return 0;
			if (ix->docs[c] > want) {
				want = ix->docs[c];
				moved = 1;
			}
		}
		if (moved) continue;
		int unseen = 0;
		const size_t g = w->q->gens ? doc_generation(w->y, want) : 0;
		for (size_t j = 0; j < w->n_distinct && !unseen; j++) unseen = !sees(w, j, g);
		if (!unseen) {
			*d = want;
			w->next_doc = want + 1;
			return 1;
		}
		want++;
	}
}

/* With negated words the walk is Yioop's own, iterator by iterator, because its
 * NegationIterator is not a set difference: it pairs a DocIterator over every doc record with
 * the word's WordIterator, ignores the end of its own sync, and that DocIterator moves 32 bytes
 * of doc records from where it was, or to where it is sent, whichever is further. So a doc whose
 * record starts less than 32 bytes after a match (or after a doc the negated word holds) is
 * passed over, and past the negated word's last doc the DocIterator's position stands for it.
 * Positions are (generation, byte offset of the doc record), as Yioop's iterators compare them;
 * one past a generation's records still compares as that generation's. */
typedef struct ypos {
	size_t g;
	double off;
} ypos;
#define Y_END ((size_t)-1)

static int ypos_cmp(ypos a, ypos b)
{
	if (a.g != b.g) return a.g < b.g ? -1 : 1;
	return a.off < b.off ? -1 : a.off > b.off;
}

static double gen_units(const gp_yioop_docs *y, size_t g)
{
	return (double)(y->base[g + 1] - y->base[g]);
}

/* a word's WordIterator: its cursor's posting, past the generations Yioop does not see it in */
static ypos word_pos(walk *w, size_t slot, uint32_t t, uint64_t *cur)
{
	const gp_index *ix = w->ix;
	while (*cur < ix->list_at[t + 1] && w->seen[slot] && !sees(w, slot, doc_generation(w->y, ix->docs[*cur]))) (*cur)++;
	if (*cur == ix->list_at[t + 1]) return (ypos){Y_END, 0};
	const size_t g = doc_generation(w->y, ix->docs[*cur]);
	return (ypos){g, 16.0 * (double)(ix->docs[*cur] - w->y->base[g])};
}

/* WordIterator::advance($target): nothing where it is at or past it, else its first posting at
 * or after it */
static void word_advance(walk *w, size_t slot, uint32_t t, uint64_t *cur, ypos target)
{
	const gp_index *ix = w->ix;
	ypos at = word_pos(w, slot, t, cur);
	if (at.g == Y_END || ypos_cmp(at, target) >= 0) return;
	uint64_t global;
	if (target.g >= w->y->n_gens) {
		global = UINT64_MAX;
	} else {
		/* nextPostingOffsetDocOffset: the doc index of a byte offset ($doc_offset >> 4) */
		const double index = fmin(floor(floor(target.off) / 16), gen_units(w->y, target.g));
		global = w->y->base[target.g] + (uint64_t)index;
	}
	*cur = gp_index_first_at_least(ix->docs, *cur, ix->list_at[t + 1], global);
	(void)word_pos(w, slot, t, cur);
}

static void doc_generation_to(const walk *w, doc_it *a, size_t g)
{
	a->g = g;
	a->c = 0;
	if (g < w->y->n_gens) a->len = 16 * gen_units(w->y, g);
}

static ypos doc_pos(const walk *w, const doc_it *a)
{
	if (a->g >= w->y->n_gens || a->c > a->len) return (ypos){Y_END, 0};
	return (ypos){a->g, a->c};
}

/* DocIterator::advance($target) as Yioop writes it: advanceSeenDocs steps 32 bytes (4 x
 * DOC_KEY_LEN) from the current offset, then the target's offset is taken where it is further */
static void doc_advance(const walk *w, doc_it *a, const ypos *target)
{
	double num = fmin(1, (a->len - a->n) / 32);
	a->n = a->c + 32 * num;
	if (a->c < a->n) {
		a->c = a->n;
	} else {
		doc_generation_to(w, a, a->g + 1);
		a->n = a->c;
	}
	if (a->c > a->len) {
		doc_generation_to(w, a, a->g + 1);
		a->n = a->c;
	}
	if (target && target->g != Y_END) {
		if (a->g < target->g) {
			doc_generation_to(w, a, target->g);
			a->n = a->c;
		}
		if (a->g == target->g) {
			a->c = fmax(a->c, target->off);
			if (a->c > a->len) {
				doc_generation_to(w, a, a->g + 1);
				a->n = a->c;
			}
		}
	}
}

/* NegationIterator::currentGenDocOffsetWithWord: its sync (whose end Yioop ignores), then its
 * DocIterator's position */
static ypos negation_pos(walk *w, size_t k)
{
	doc_it *a = &w->all[k];
	const uint32_t t = w->q->negated[k];
	int changed_all = 0, changed_term = 0;
	ypos old_all = {0, 0}, old_term = {0, 0};
	int c;
	if (w->neg_empty[k]) return doc_pos(w, a);
	do {
		ypos all = doc_pos(w, a);
		if (all.g == Y_END || (changed_all && ypos_cmp(all, old_all) == 0)) break;
		ypos term = word_pos(w, 64 + k, t, &w->neg_cursor[k]);
		if (term.g == Y_END || (changed_term && ypos_cmp(term, old_term) == 0)) break;
		c = ypos_cmp(all, term);
		if (c > 0) {
			word_advance(w, 64 + k, t, &w->neg_cursor[k], all);
			old_term = term;
			changed_term = 1;
			changed_all = 0;
		} else if (c == 0) {
			doc_advance(w, a, &term);
			old_all = all;
			changed_term = 0;
			changed_all = 1;
		}
	} while (c >= 0);
	return doc_pos(w, a);
}

/* iterator i of the IntersectIterator: the distinct words, then the negations */
static ypos iterator_pos(walk *w, size_t i)
{
	if (i < w->n_distinct) return word_pos(w, i, w->distinct[i], &w->cursor[i]);
	return negation_pos(w, i - w->n_distinct);
}

static void iterator_advance(walk *w, size_t i, ypos target)
{
	if (i < w->n_distinct) word_advance(w, i, w->distinct[i], &w->cursor[i], target);
	else doc_advance(w, &w->all[i - w->n_distinct], &target);
}

/* IntersectIterator::syncGenDocOffsetsAmongstIterators: 1 with every iterator on one position,
 * 0 when one ends (or falls short of the largest, which ends Yioop's intersection too) */
static int intersect_sync(walk *w)
{
	const size_t n = w->n_distinct + w->q->n_negated;
	ypos at[128];
	ypos biggest = iterator_pos(w, 0);
	if (biggest.g == Y_END) return 0;
	at[0] = biggest;
	int all_same = 1;
	for (size_t i = 1; i < n; i++) {
		at[i] = iterator_pos(w, i);
		if (at[i].g == Y_END) return 0;
		const int c = ypos_cmp(at[i], biggest);
		if (c > 0) {
			biggest = at[i];
			all_same = 0;
		} else if (c < 0) {
			all_same = 0;
		}
	}
	if (all_same) return 1;
	size_t i = 0;
	long last_changed = -1;
	while ((long)i != last_changed) {
		if (ypos_cmp(at[i], biggest) < 0) {
			iterator_advance(w, i, biggest);
			at[i] = iterator_pos(w, i);
			if (at[i].g == Y_END) return 0;
			const int c = ypos_cmp(at[i], biggest);
			if (c < 0) return 0;
			if (c > 0) {
				last_changed = (long)i;
				biggest = at[i];
			}
		}
		if (++i == n) {
			i = 0;
			if (last_changed < 0) last_changed = 0;
		}
	}
	return 1;
}

static int next_match(walk *w, uint64_t *d)
{
	if (w->q->n_negated == 0) return next_common(w, d);
	if (w->started) {
		/* IntersectIterator::advance: its first word to its next posting */
		w->cursor[0]++;
	}
	w->started = 1;
	if (!intersect_sync(w)) return 0;
	*d = w->ix->docs[w->cursor[0]];
	for (size_t j = 1; j < w->n_distinct; j++) {
		if (w->ix->docs[w->cursor[j]] != *d) return 0;   /* cannot be: the words agree on it */
	}
	return 1;
}

/* --- reciprocal rank fusion (getSummariesByHash) through the face's sort --- */

typedef struct fuse_el {
	double v;
	size_t page;
} fuse_el;

/* Yioop's orderCallback: descending, and never "equal" */
static int fuse_cmp(const void *a, const void *b)
{
	return ((const fuse_el *)a)->v > ((const fuse_el *)b)->v ? -1 : 1;
}

static void fuse_swap(void *a, void *b)
{
	fuse_el t = *(fuse_el *)a;
	*(fuse_el *)a = *(fuse_el *)b;
	*(fuse_el *)b = t;
}

/* field f of a page: DOC_RANK, RELEVANCE, PROXIMITY, OUT_SCORE, then USCORE0, USCORE1... (its
 * user ranks, 0 past them) */
static double page_field(const gp_yioop_result *r, const gp_yioop_face *face, const gp_yioop_page *p, size_t f)
{
	if (f >= 4) return f - 4 < p->n_ranks ? face->number_format(r->ranks[p->rank_at + f - 4], 4) : 0;
	return f == 0 ? p->doc_rank : f == 1 ? p->relevance : f == 2 ? p->proximity : p->score;
}

/* getSummariesByHash's reciprocal rank fusion: each field sorted (descending, by usort), a
 * page's dense rank in it adding 600 / fields / (59 + rank), then the pages sorted by the sum */
static int fuse(gp_yioop_result *r, const gp_yioop_face *face, int use_proximity, gp_error *err)
{
	const size_t n = r->n_pages;
	if (n == 0) return GP_OK;
	fuse_el *el = malloc(n * sizeof(*el));
	gp_yioop_page *tmp = malloc(n * sizeof(*tmp));
	size_t fields[4 + Y_AUX_VALUES], n_fields = 0, max_ranks = 0;
	if (!el || !tmp) {
		free(el);
		free(tmp);
		return gp_index_fail_nomem(err, "the pages' ranks");
	}
	for (size_t i = 0; i < n; i++) {
		if (r->pages[i].n_ranks > max_ranks) max_ranks = r->pages[i].n_ranks;
	}
	fields[n_fields++] = 0;
	fields[n_fields++] = 1;
	if (use_proximity) fields[n_fields++] = 2;
	for (size_t j = 0; j < max_ranks; j++) fields[n_fields++] = 4 + j;
	fields[n_fields] = 3;
	const double alpha = 600.0 / (double)n_fields;
	for (size_t i = 0; i < n; i++) r->pages[i].score = 0;   /* OUT_SCORE */
	for (size_t f = 0; f <= n_fields; f++) {
		const size_t field = fields[f];
		for (size_t i = 0; i < n; i++) el[i] = (fuse_el){page_field(r, face, &r->pages[i], field), i};
		face->sort(el, n, sizeof(*el), fuse_cmp, fuse_swap);
		for (size_t i = 0; i < n; i++) tmp[i] = r->pages[el[i].page];
		memcpy(r->pages, tmp, n * sizeof(*tmp));
		if (f == n_fields) break;
		double score = 0;
		for (size_t i = 0; i < n; i++) {
			if (i > 0 && page_field(r, face, &r->pages[i - 1], field) != page_field(r, face, &r->pages[i], field)) score++;
			r->pages[i].score += alpha / (59 + score);
		}
	}
	if (!use_proximity) {
		for (size_t i = 0; i < n; i++) r->pages[i].proximity = 1;
	}
	free(el);
	free(tmp);
	return GP_OK;
}

/* --- the walk: blocks of items, grouped by URL (GroupIterator) --- */

static int grow(void **p, size_t *cap, size_t need, size_t size, const gp_budget *budget, gp_error *err)
{
	if (need <= *cap) return GP_OK;
	size_t c = *cap ? 2 * *cap : 256;
	while (c < need) c *= 2;
	if (gp_budget_check(budget, 0, (uint64_t)c * size, "the search's pages", err) != GP_OK) return GP_ENOMEM;
	void *q = realloc(*p, c * size);
	if (!q) return gp_index_fail_nomem(err, "the search's pages");
	*p = q;
	*cap = c;
	return GP_OK;
}

void gp_yioop_result_free(gp_yioop_result *r)
{
	free(r->pages);
	free(r->members);
	free(r->ranks);
	memset(r, 0, sizeof(*r));
}

/* A walk over q's conjunction (IntersectIterator), set at its start: 1, or 0 when it has no
 * matches at all (a word Yioop finds nowhere). */
static int walk_init(walk *w, const gp_index *ix, const gp_yioop_query *q, const gp_yioop_face *face, int summary_attr)
{
	memset(w, 0, sizeof(*w));
	w->ix = ix;
	w->y = ix->yioop;
	w->q = q;
	w->face = face;
	w->summary_attr = summary_attr;
	/* the distinct words, in the order they first come (PhraseModel's distinct_word_keys) */
	for (size_t i = 0; i < q->n_words; i++) {
		size_t j = 0;
		while (j < w->n_distinct && w->distinct[j] != q->words[i]) j++;
		if (j == w->n_distinct) {
			w->distinct[j] = q->words[i];
			w->n_distinct++;
		}
		w->map[i] = j;
	}
	for (size_t j = 0; j < w->n_distinct; j++) {
		if (w->distinct[j] >= ix->n_terms) return 0;   /* a word in no generation: no matches */
		w->cursor[j] = ix->list_at[w->distinct[j]];
	}
	for (size_t i = 0; i < q->n_words; i++) {
		if (!q->gens || !q->gens[i] || w->seen[w->map[i]]) continue;
		if (q->n_gens[i] == 0) return 0;   /* Yioop sees the word nowhere */
		w->seen[w->map[i]] = q->gens[i];
		w->n_seen[w->map[i]] = q->n_gens[i];
	}
	for (size_t k = 0; k < q->n_negated; k++) {
		/* a negated word Yioop finds nowhere leaves its DocIterator alone (it excludes nothing,
		 * but still steps) */
		const uint32_t t = q->negated[k];
		w->neg_empty[k] = t >= ix->n_terms || (q->gens && q->gens[q->n_words + k] && q->n_gens[q->n_words + k] == 0);
		if (!w->neg_empty[k]) {
			w->neg_cursor[k] = ix->list_at[t];
			if (q->gens && q->gens[q->n_words + k]) {
				w->seen[64 + k] = q->gens[q->n_words + k];
				w->n_seen[64 + k] = q->n_gens[q->n_words + k];
			}
		}
		doc_generation_to(w, &w->all[k], 0);   /* DocIterator::reset */
		w->all[k].n = 0;
	}
	return 1;
}

/* One step of a conjunction: 1 with *got set (and *it, the match's item) where it found a match
 * (*got 0: the match's item is dropped: not the phrase, a record Yioop drops), 0 when it is done. */
static int walk_step(walk *w, item *it, int *got, int *rc)
{
	uint64_t d;
	*got = 0;
	*rc = GP_OK;
	if (!next_match(w, &d)) return 0;
	if ((*rc = make_item(w, d, it)) != GP_OK) return 0;
	*got = !w->why && it->skip >= 0;
	return 1;
}

/* The docs of the union of the conjunctions, counted: each walk's docs increase, so a merge of
 * fresh walks counts each doc once (a quote's words checked in each). */
static int count_matches(walk *ws, size_t n, const gp_yioop_query *qs, const gp_index *ix, const gp_yioop_face *face,
                         int summary_attr, uint64_t *count, const char **why)
{
	uint64_t *head = malloc((n + 1) * sizeof(*head));
	if (!head) return GP_ENOMEM;
	int rc = GP_OK;
	*count = 0;
	for (size_t c = 0; c < n; c++) {
		head[c] = UINT64_MAX;
		if (!walk_init(&ws[c], ix, &qs[c], face, summary_attr)) continue;
		uint64_t d;
		while (next_match(&ws[c], &d)) {
			if (qs[c].n_quotes) {
				item it;
				if ((rc = make_item(&ws[c], d, &it)) != GP_OK) goto done;
				if (ws[c].why) {
					*why = ws[c].why;
					goto done;
				}
				if (it.skip < 0) continue;
			}
			head[c] = d;
			break;
		}
	}
	for (;;) {
		uint64_t low = UINT64_MAX;
		for (size_t c = 0; c < n; c++) if (head[c] < low) low = head[c];
		if (low == UINT64_MAX) break;
		(*count)++;
		for (size_t c = 0; c < n; c++) {
			if (head[c] != low) continue;
			head[c] = UINT64_MAX;
			uint64_t d;
			while (next_match(&ws[c], &d)) {
				if (qs[c].n_quotes) {
					item it;
					if ((rc = make_item(&ws[c], d, &it)) != GP_OK) goto done;
					if (ws[c].why) {
						*why = ws[c].why;
						goto done;
					}
					if (it.skip < 0) continue;
				}
				head[c] = d;
				break;
			}
		}
	}
done:
	free(head);
	return rc;
}

int gp_yioop_search(const gp_index *ix, const gp_yioop_query *qs, size_t n_queries, size_t to_retrieve, int walk_order,
                    const gp_yioop_face *face, const gp_budget *budget, gp_yioop_result *r, gp_error *err)
{
	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	if (!ix->yioop || !ix->docs || !ix->positional || !ix->yioop->posting_estimate) {
		gp_fail(err, YS_NAME, 0, "the index is not a Yioop bundle's opened whole");
		return err->code = GP_EVALUE;
	}
	const int summary_attr = gp_index_attribute_find(ix, "summary_offset", 14);
	if (n_queries == 0 || n_queries > GP_YIOOP_MAX_STRUCTS || summary_attr < 0) {
		gp_fail(err, YS_NAME, 0, "1 to %d word structs", GP_YIOOP_MAX_STRUCTS);
		return err->code = GP_EVALUE;
	}
	for (size_t c = 0; c < n_queries; c++) {
		const gp_yioop_query *q = &qs[c];
		if (q->n_words == 0 || q->n_words > 64 || q->n_negated > 64 || (q->n_quotes && (!q->quote_at || !q->quote_pairs))) {
			gp_fail(err, YS_NAME, 0, "a word struct of 1 to 64 words and at most 64 negated words");
			return err->code = GP_EVALUE;
		}
	}
	r->exhausted = 1;
	for (size_t c = 0; c < n_queries; c++) {
		if (qs[c].n_words == 1 && qs[c].n_negated == 0 && qs[c].weight == 1) {
			r->why = "a single word (Yioop reads its list 200 postings a slice, without an intersection)";
			return GP_OK;
		}
	}
	walk *ws = calloc(n_queries, sizeof(*ws));
	uint8_t *done_walk = calloc(n_queries, 1);
	item *step = malloc(n_queries * sizeof(*step));
	if (!ws || !done_walk || !step) {
		free(ws);
		free(done_walk);
		free(step);
		return gp_index_fail_nomem(err, "the search");
	}
	int rc = GP_OK;
	const char *why = NULL;
	for (size_t c = 0; c < n_queries; c++) done_walk[c] = !walk_init(&ws[c], ix, &qs[c], face, summary_attr);
	/* GroupIterator's block: 200 / ceil(the last struct's distinct words / 2) docs */
	const double per_block = Y_GROUP / ceil((double)ws[n_queries - 1].n_distinct / 2.0);
	walk *w = &ws[0];   /* the doc fields' reader (any walk reads them alike) */
	item *block = NULL;
	size_t block_cap = 0, pages_cap = 0, members_cap = 0, ranks_cap = 0;
	key_set grouped_urls = {0}, grouped_hashes = {0};
	uint64_t *new_hashes = NULL, *new_urls = NULL;
	size_t new_cap = 0, urls_cap = 0;
	int more = 1;
	while (more && r->n_pages < to_retrieve) {
		/* a block: steps until it holds per_block distinct doc keys (pages += by key); a step
		 * takes each conjunction's next match (UnionIterator: array_merge by key, a later
		 * conjunction's item in an earlier one's place) */
		size_t n_block = 0, n_keys = 0;
		while ((double)n_keys < per_block) {
			size_t n_step = 0;
			int any = 0;
			for (size_t c = 0; c < n_queries; c++) {
				if (done_walk[c]) continue;
				item it;
				int got;
				if (!walk_step(&ws[c], &it, &got, &rc)) {
					if (rc != GP_OK) goto done;
					done_walk[c] = 1;
					continue;
				}
				any = 1;
				if (ws[c].why) {
					why = ws[c].why;
					goto done;
				}
				if (!got) continue;
				const uint8_t *k = w->y->keys + GP_YIOOP_DOC_KEYS * it.doc;
				size_t at = 0;
				while (at < n_step && memcmp(w->y->keys + GP_YIOOP_DOC_KEYS * step[at].doc, k, GP_YIOOP_DOC_KEYS) != 0) at++;
				step[at] = it;
				if (at == n_step) n_step++;
			}
			if (!any) {
				more = 0;
				break;
			}
			for (size_t i = 0; i < n_step; i++) {
				/* a doc's key (24 bytes) already in the block keeps the first */
				const uint8_t *k = w->y->keys + GP_YIOOP_DOC_KEYS * step[i].doc;
				int dup = 0;
				for (size_t b = 0; b < n_block && !dup; b++) {
					dup = memcmp(w->y->keys + GP_YIOOP_DOC_KEYS * block[b].doc, k, GP_YIOOP_DOC_KEYS) == 0;
				}
				if (dup) continue;
				if ((rc = grow((void **)&block, &block_cap, n_block + 1, sizeof(*block), budget, err)) != GP_OK) goto done;
				block[n_block++] = step[i];
				n_keys++;
			}
		}
		if (n_block == 0) break;
		/* groupByHashUrl: groups by the key's first 8 bytes in the order they first come, docs
		 * unshifted (the last walked first); a URL grouped in an earlier block is left out */
		size_t n_new = 0, n_urls = 0;
		for (size_t b = 0; b < n_block; b++) {
			if (block[b].skip) continue;
			const uint64_t url = key8(w->y->keys + GP_YIOOP_DOC_KEYS * block[b].doc);
			if (key_has(&grouped_urls, url)) continue;
			size_t u = 0;
			while (u < n_urls && new_urls[u] != url) u++;
			if (u == n_urls) {
				if ((rc = grow((void **)&new_urls, &urls_cap, n_urls + 1, sizeof(*new_urls), budget, err)) != GP_OK) goto done;
				new_urls[n_urls++] = url;
			}
		}
		for (size_t u = 0; u < n_urls; u++) {
			const uint64_t url = new_urls[u];
			const size_t first = r->n_members;
			for (size_t b = n_block; b-- > 0;) {
				if (block[b].skip || key8(w->y->keys + GP_YIOOP_DOC_KEYS * block[b].doc) != url) continue;
				if ((rc = grow((void **)&r->members, &members_cap, r->n_members + 1, sizeof(*r->members), budget, err)) != GP_OK) goto done;
				r->members[r->n_members++] = block[b].doc;
			}
			/* aggregateScores: each host's items weigh half the one before, a host's home page
			 * twice */
			gp_yioop_page pg = {first, r->n_members - first, 0, 0, 0, 0, 0, 0, 0};
			uint64_t hosts[64];
			double weights[64];
			size_t n_hosts = 0;
			for (size_t m = first; m < r->n_members; m++) {
				size_t b = 0;
				while (block[b].doc != r->members[m]) b++;
				const uint8_t *k = w->y->keys + GP_YIOOP_DOC_KEYS * block[b].doc;
				const uint64_t host = key8(k + 16);
				size_t hh = 0;
				while (hh < n_hosts && hosts[hh] != host) hh++;
				if (hh == n_hosts) {
					if (n_hosts == 64) {
						why = "a URL's group spans more than 64 hosts";
						goto done;
					}
					hosts[n_hosts] = host;
					weights[n_hosts++] = 1;
				}
				const double boost = memcmp(k + 1, k + 17, 7) == 0 ? 2 : 1;
				const double alpha = boost * weights[hh];
				pg.hash_sum_score += alpha * block[b].doc_rank;
				pg.doc_rank += alpha * block[b].doc_rank;
				pg.relevance += alpha * block[b].relevance;
				pg.proximity = fmax(pg.proximity, block[b].proximity);
				weights[hh] *= 0.5;
			}
			/* groupByHashAndAggregate: a content hash grouped in an earlier block drops the
			 * group (Yioop's merge of one block's groups of one hash changes nothing) */
			const uint64_t hash = key8(w->y->keys + GP_YIOOP_DOC_KEYS * r->members[first] + 8);
			if (key_has(&grouped_hashes, hash)) {
				r->n_members = first;
				continue;
			}
			if ((rc = grow((void **)&new_hashes, &new_cap, n_new + 1, sizeof(*new_hashes), budget, err)) != GP_OK) goto done;
			new_hashes[n_new++] = hash;
			/* the page's USER_RANKS: its first member's */
			const uint64_t lead = r->members[first];
			const uint32_t lead_keys = w->y->doc_int[lead] & 255u;
			w->n_ranks = 0;
			if (lead_keys > 3 && lead_keys <= 120) {
				unpack_aux(w, w->y->aux + w->y->aux_at[lead], (size_t)(8 * (lead_keys - 3)));
			}
			pg.rank_at = r->n_rank_values;
			pg.n_ranks = w->n_ranks;
			if ((rc = grow((void **)&r->ranks, &ranks_cap, r->n_rank_values + w->n_ranks, sizeof(*r->ranks), budget, err)) != GP_OK) goto done;
			for (size_t j = 0; j < w->n_ranks; j++) r->ranks[r->n_rank_values++] = w->rank[j];
			if ((rc = grow((void **)&r->pages, &pages_cap, r->n_pages + 1, sizeof(*r->pages), budget, err)) != GP_OK) goto done;
			r->pages[r->n_pages++] = pg;
		}
		/* GroupIterator::advance: this block's URLs and hashes are grouped from now on */
		for (size_t u = 0; u < n_urls; u++) {
			if ((rc = key_add(&grouped_urls, new_urls[u])) != GP_OK) goto nomem;
		}
		for (size_t k = 0; k < n_new; k++) {
			if ((rc = key_add(&grouped_hashes, new_hashes[k])) != GP_OK) goto nomem;
		}
	}
	r->exhausted = r->n_pages < to_retrieve;
	/* every match, counted */
	if ((rc = count_matches(ws, n_queries, qs, ix, face, summary_attr, &r->matches, &why)) != GP_OK) {
		if (rc == GP_ENOMEM) gp_index_fail_nomem(err, "the search's count");
		goto done;
	}
	if (why) goto done;
	if (walk_order) {
		for (size_t i = 0; i < r->n_pages; i++) r->pages[i].score = r->pages[i].hash_sum_score;
	} else {
		rc = fuse(r, face, n_queries > 1 || qs[0].n_words > 1, err);
	}
	goto done;
nomem:
	rc = gp_index_fail_nomem(err, "the search's groups");
done:
	if (why && rc == GP_OK) {
		r->why = why;
		free(r->pages);
		free(r->members);
		free(r->ranks);
		r->pages = NULL;
		r->members = NULL;
		r->ranks = NULL;
		r->n_rank_values = 0;
		r->n_pages = r->n_members = 0;
		r->matches = 0;
		r->exhausted = 1;
	}
	free(block);
	free(new_hashes);
	free(new_urls);
	key_free(&grouped_urls);
	key_free(&grouped_hashes);
	free(ws);
	free(done_walk);
	free(step);
	return rc;
}
