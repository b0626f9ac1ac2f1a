/* Each match's item as Yioop's IndexShard::makeItem and IntersectIterator::findDocsWithWord make
 * it (Yioop 2021): DOC_RANK, each word's RELEVANCE (its aux keys' description scores read),
 * their sum, the quotes checked, PROXIMITY's plane sweep. Each step follows Yioop's arithmetic in
 * its order, so that the doubles come out the same. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_yioop_walk.h"

/* docStats: one part of RELEVANCE (Yioop's BM25F-like sum) */
static double doc_stats(const walk *w, double occurrences, double doc_len, double estimate, double average_doc_len,
                        double num_docs, double total, double type_weight)
{
	const double half = 0.5;
	const double doc_ratio = average_doc_len > 0 ? doc_len / average_doc_len : 0;
	const double pre = w->face->round_decimal(3 * occurrences / (occurrences + half + 1.5 * doc_ratio), Y_PRECISION);
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
int gp_yioop_unpack_aux(walk *w, const uint8_t *p, size_t len)
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
size_t gp_yioop_doc_generation(const gp_yioop_docs *y, uint64_t d)
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
int gp_yioop_sees(const walk *w, size_t i, size_t g)
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

double gp_yioop_doc_rank(const gp_yioop_docs *y, uint64_t d, size_t g, double (*round_decimal)(double v, int places),
                         int *archive)
{
	const uint32_t *h = y->header + GP_YIOOP_HEADER_FIELDS * g;
	const uint32_t pre_rank = (y->doc_int[d] >> 8) & (0x0Fu << 19);
	*archive = pre_rank != 0;
	if (pre_rank) return pre_rank >> 19;
	const double depth = log10((double)(d - y->base[g] + 1) + (double)(Y_LINKS_PER_PAGE + 1) *
	                           (double)h[GP_YH_PER_GENERATION] * (double)h[GP_YH_GENERATION]);
	return round_decimal(10 - depth, Y_PRECISION);
}

/* The doc's item, or 0 with it.skip = -1 when Yioop's WordIterator drops the doc. */
int gp_yioop_make_item(walk *w, uint64_t d, item *it)
{
	const gp_yioop_docs *y = w->y;
	const gp_index *ix = w->ix;
	while (w->gen + 1 < y->n_gens && d >= y->base[w->gen + 1]) w->gen++;
	const uint32_t *h = y->header + GP_YIOOP_HEADER_FIELDS * w->gen;
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
	if (n_keys > 3 && gp_yioop_unpack_aux(w, y->aux + y->aux_at[d], (size_t)(8 * (n_keys - 3))) < 0) {
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
	int archive;
	it->doc_rank = gp_yioop_doc_rank(y, d, w->gen, w->face->round_decimal, &archive);
	if (archive) doc_len &= 0x80000u;   /* makeItem's (2 << 19 - 1) */
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
				/* Yioop takes the list at the map's place among the lists taken so far: where
				 * there is none (an earlier word had no positions), its computeProximity then
				 * fails on the null it takes */
				if (w->map[i] >= n_lists) {
					w->why = "a repeated word whose position list Yioop looks for where there is none (its code fails there)";
					return GP_OK;
				}
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
