/* libFuzzer harness for the index's queries: the input drives a generator of a small index (MOD9,
 * S9 or QS lists; empty lists, equal docs in a row that the build merges, unsorted and repeated
 * positions, doc 0 and, where the format holds it, 2^32 - 2; doc lengths for ranking, and BM25's
 * k1 and b) and of a batch of queries (AND, OR, phrase; terms repeated, unknown, lists empty;
 * every match, counts only, or the top k), answered by gp_index_query_host under a budget that
 * is at times tight. Every answer is checked against a plain reference written from the
 * operators' definitions (docs/API.md): sets of docs intersected or united, a phrase's
 * positions tried at every start, every match scored with BM25 place by place and sorted; a
 * refusal must be GP_ENOMEM naming the memory. */
#include <math.h>

#include "fuzz_common.h"
#include "../query/gp_query.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_qs.h"

#define MAX_TERMS 6
#define MAX_POSTINGS 24
#define MAX_POS 6
#define MAX_QUERIES 6
#define MAX_QTERMS 7

/* The input read as a stream of bytes (zeros past its end). */
typedef struct src {
	const uint8_t *p;
	size_t n, at;
} src;

static uint32_t take(src *s, uint32_t below)
{
	uint32_t v = s->at < s->n ? s->p[s->at++] : 0;
	if (below > 256 && s->at < s->n) v = v << 8 | s->p[s->at++];
	return below ? v % below : v;
}

/* The reference's view of one term: its docs (increasing, each once) and each doc's positions
 * (sorted, each once), as the index must keep them. */
typedef struct ref_list {
	uint32_t n;
	uint32_t docs[MAX_POSTINGS];
	uint32_t n_pos[MAX_POSTINGS];
	int32_t pos[MAX_POSTINGS][MAX_POSTINGS * MAX_POS];   /* a doc given in every posting */
} ref_list;

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

/* A doc the format holds: small ones mostly, some near the largest. */
static uint32_t gen_doc(src *s, int format)
{
	static const uint32_t far[] = {0, 1, 1u << 15, (1u << 15) + 1, (1u << 18) - 1, 1u << 20, (1u << 27) - 2};
	static const uint32_t far32[] = {1u << 31, 0xFFFFFFFDu, 0xFFFFFFFEu};
	uint32_t k = take(s, 16);
	if (k < 12) return take(s, 40);
	if (k < 15 || format == GP_IX_MOD9) return far[take(s, sizeof(far) / sizeof(far[0]))];
	return far32[take(s, sizeof(far32) / sizeof(far32[0]))];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* One term's blob, and the reference's list. Docs are non-decreasing: a doc given twice in a row
 * is one document whose positions are merged. */
static size_t gen_list(src *s, int format, ref_list *r, uint8_t *blob)
{
	uint32_t n = take(s, 5) == 0 ? 0 : take(s, MAX_POSTINGS + 1);
	uint32_t docs[MAX_POSTINGS];
	int64_t values[MAX_POSTINGS * (MAX_POS + 2)];
	for (uint32_t i = 0; i < n; i++) docs[i] = gen_doc(s, format);
	qsort(docs, n, sizeof(uint32_t), cmp_u32);
	if (format == GP_IX_S9) {   /* S9 holds 28-bit values: the first doc and every gap below 2^28 */
		int fits = n == 0 || docs[0] < (1u << 28);
		for (uint32_t i = 1; i < n; i++) fits = fits && docs[i] - docs[i - 1] < (1u << 28);
		for (uint32_t i = 0; i < n && !fits; i++) docs[i] &= (1u << 28) - 1;
		qsort(docs, n, sizeof(uint32_t), cmp_u32);
	}
	memset(r, 0, sizeof(*r));
	size_t len = 0;
	if (format == GP_IX_MOD9) {
		for (uint32_t i = 0; i < n; i++) {
			/* positions from 1, increasing (MOD9 stores gaps), 1 to MAX_POS of them, or none
			 * (Yioop's meta words) */
			int64_t pos[MAX_POS];
			uint32_t np = take(s, MAX_POS + 1), last = 0;
			for (uint32_t j = 0; j < np; j++) {
				last += 1 + take(s, j == 0 ? 600 : 4);
				pos[j] = last;
			}
			uint32_t v[MAX_POS + 2];
			const char *why;
			/* Yioop's combined form loses a first position of 512 or more (FORMATS.md): the
			 * separate form then */
			int combine = take(s, 2) && (np == 0 || pos[0] < 512);
			size_t k = gp_mod9_posting_values(docs[i], pos, np, combine, v, &why);
			FUZZ_CHECK(k > 0);
			len += gp_mod9_encode_values(v, k, blob + len);
			/* the reference: the doc once, its positions merged */
			if (r->n == 0 || r->docs[r->n - 1] != docs[i]) {
				r->docs[r->n] = docs[i];
				r->n_pos[r->n++] = 0;
			}
			uint32_t at = r->n - 1;
			for (uint32_t j = 0; j < np; j++) r->pos[at][r->n_pos[at]++] = (int32_t)pos[j];
		}
		for (uint32_t d = 0; d < r->n; d++) {
			qsort(r->pos[d], r->n_pos[d], sizeof(int32_t), cmp_i32);
			uint32_t m = 0;
			for (uint32_t j = 0; j < r->n_pos[d]; j++) {
				if (m == 0 || r->pos[d][j] != r->pos[d][m - 1]) r->pos[d][m++] = r->pos[d][j];
			}
			r->n_pos[d] = m;
		}
		return len;
	}
	for (uint32_t i = 0; i < n; i++) {
		values[i] = docs[i];
		if (r->n == 0 || r->docs[r->n - 1] != docs[i]) r->docs[r->n++] = docs[i];
	}
	if (format == GP_IX_S9) {
		const char *why;
		size_t at;
		len = gp_s9_encode(values, n, take(s, 3), blob, &why, &at);
		if (len == 0) len = gp_s9_encode(values, n, 1, blob, &why, &at);   /* rule 1 holds what was made to fit */
		FUZZ_CHECK(len > 0);
		return len;
	}
	uint32_t last = n ? docs[n - 1] : 0, l = gp_qs_choose_l(last, n, 1.0 + take(s, 4));
	len = gp_qs_encoded_size(last, n, l);
	memset(blob, 0, len);
	gp_qs_encode(docs, n, l, blob);
	return len;
}

static int ref_has(const ref_list *r, uint32_t doc, uint32_t *at)
{
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->docs[i] == doc) {
			*at = i;
			return 1;
		}
	}
	return 0;
}

static int ref_has_pos(const ref_list *r, uint32_t at, int64_t p)
{
	for (uint32_t j = 0; j < r->n_pos[at]; j++) {
		if (r->pos[at][j] == p) return 1;
	}
	return 0;
}

typedef struct scored {
	uint32_t doc;
	double score;
} scored;

static int best_first(const void *a, const void *b)
{
	const scored *x = a, *y = b;
	if (x->score != y->score) return x->score > y->score ? -1 : 1;
	return x->doc < y->doc ? -1 : x->doc > y->doc;
}

/* The reference answer of one query: docs increasing (or best first, with scores, when ranked). */
/* The doc lengths as given (docs increasing, each with its tokens). */
typedef struct ref_lengths {
	const uint32_t *docs, *tokens;
	size_t n;
	double k1, b, avgdl;
} ref_lengths;

static double ref_length(const ref_lengths *l, uint32_t doc)
{
	for (size_t i = 0; i < l->n; i++) {
		if (l->docs[i] == doc) return (double)l->tokens[i];
	}
	FUZZ_CHECK(!"a doc of the lists without a length");
	return 0.0;
}

static size_t ref_query(const ref_list *refs, const uint32_t *terms, size_t nt, int op, uint32_t limit,
                        int positional, const ref_lengths *lengths, scored *out)
{
	/* candidates: every doc of every list of the query */
	uint32_t cand[MAX_QTERMS * MAX_POSTINGS];
	size_t nc = 0, n = 0;
	for (size_t i = 0; i < nt; i++) {
		if (terms[i] == GP_IX_NO_TERM) continue;
		for (uint32_t j = 0; j < refs[terms[i]].n; j++) cand[nc++] = refs[terms[i]].docs[j];
	}
	qsort(cand, nc, sizeof(uint32_t), cmp_u32);
	for (size_t c = 0; c < nc; c++) {
		uint32_t doc = cand[c], at;
		if (c > 0 && cand[c - 1] == doc) continue;
		size_t in = 0;
		for (size_t i = 0; i < nt; i++) in += terms[i] != GP_IX_NO_TERM && ref_has(&refs[terms[i]], doc, &at);
		if (op == GP_IX_OR ? in == 0 : in < nt) continue;
		if (op == GP_IX_PHRASE) {
			/* a start s with place j's term at position s + j, for every place */
			int found = 0;
			ref_has(&refs[terms[0]], doc, &at);
			for (uint32_t k = 0; k < refs[terms[0]].n_pos[at] && !found; k++) {
				int64_t start = refs[terms[0]].pos[at][k];
				size_t j = 1;
				for (; j < nt; j++) {
					uint32_t aj;
					ref_has(&refs[terms[j]], doc, &aj);
					if (!ref_has_pos(&refs[terms[j]], aj, start + (int64_t)j)) break;
				}
				found = j == nt;
			}
			if (!found) continue;
		}
		double score = 0.0;
		if (limit) {   /* BM25 place by place, in the query's order, as docs/API.md defines it */
			for (size_t i = 0; i < nt; i++) {
				if (terms[i] == GP_IX_NO_TERM || !ref_has(&refs[terms[i]], doc, &at)) continue;
				uint32_t tf = positional && refs[terms[i]].n_pos[at] ? refs[terms[i]].n_pos[at] : 1;
				double idf = gp_bm25_idf(lengths->n, refs[terms[i]].n);
				score += gp_bm25_part(idf, (double)tf, lengths->k1, lengths->b, ref_length(lengths, doc), lengths->avgdl);
			}
		}
		out[n++] = (scored){doc, score};
	}
	if (limit) {
		qsort(out, n, sizeof(*out), best_first);
		if (n > limit) n = limit;
	}
	return n;
}

/* A face whose copies cost something, so that the room as well as the cap refuses answers. */
static uint64_t face_list(uint64_t n) { return 56 + 16 * n; }
static uint64_t face_map(uint64_t n) { return 56 + 56 * n; }
static uint64_t face_lists(uint64_t values, uint64_t lists) { return 56 * lists + 16 * values; }
static uint64_t face_postings(uint64_t postings, uint64_t positions, uint64_t blobs) { return 56 * (blobs + postings) + 16 * positions; }
static const gp_face test_face = {face_list, face_map, face_lists, face_postings, "the test's memory", "its room", "its cap"};


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	src s = {data, size, 0};
	const int format = 1 + (int)take(&s, 3);
	const uint32_t n_terms = take(&s, MAX_TERMS + 1);
	static ref_list refs[MAX_TERMS];
	uint8_t *blobs[MAX_TERMS];
	size_t lens[MAX_TERMS], term_lens[MAX_TERMS];
	const char *names[MAX_TERMS];
	static const char *const words[MAX_TERMS] = {"a", "b", "c", "dd", "", "ab"};
	for (uint32_t t = 0; t < n_terms; t++) {
		blobs[t] = fuzz_alloc(gp_s9_encode_bound(MAX_POSTINGS) + 4 * MAX_POSTINGS * (MAX_POS + 3) + 64);
		lens[t] = gen_list(&s, format, &refs[t], blobs[t]);
		names[t] = words[t];
		term_lens[t] = strlen(words[t]);
	}
	gp_budget roomy = {UINT64_MAX, (uint64_t)1 << 30, 1, NULL};
	gp_index *ix;
	gp_error err;
	FUZZ_CHECK(gp_index_build(format, n_terms, names, term_lens, (const uint8_t *const *)blobs, lens, &roomy, &ix, &err) == GP_OK);
	uint32_t distinct[MAX_TERMS * MAX_POSTINGS];
	size_t n_distinct = 0;
	for (uint32_t t = 0; t < n_terms; t++) {
		FUZZ_CHECK(gp_index_df(ix, t) == refs[t].n);
		for (uint32_t i = 0; i < refs[t].n; i++) {
			FUZZ_CHECK(ix->docs[ix->list_at[t] + i] == refs[t].docs[i]);
			distinct[n_distinct++] = refs[t].docs[i];
		}
	}
	/* the distinct docs (counted by a bitmap, or by a merge where the docs are sparse) */
	qsort(distinct, n_distinct, sizeof(uint32_t), cmp_u32);
	uint64_t want_docs = 0;
	for (size_t i = 0; i < n_distinct; i++) want_docs += i == 0 || distinct[i] != distinct[i - 1];
	FUZZ_CHECK(ix->n_docs == want_docs);
	/* doc lengths for every doc of the lists (and some others: N counts them), 1 to 100 tokens */
	uint32_t all[MAX_TERMS * MAX_POSTINGS + 4], lens_of[MAX_TERMS * MAX_POSTINGS + 4];
	size_t n_all = 0;
	for (uint32_t t = 0; t < n_terms; t++) {
		for (uint32_t i = 0; i < refs[t].n; i++) all[n_all++] = refs[t].docs[i];
	}
	for (uint32_t k = take(&s, 3); k > 0; k--) all[n_all++] = take(&s, 60);
	qsort(all, n_all, sizeof(uint32_t), cmp_u32);
	size_t m = 0;
	for (size_t i = 0; i < n_all; i++) {
		if (m == 0 || all[i] != all[m - 1]) all[m++] = all[i];
	}
	/* a table by doc costs 4 bytes a doc up to the largest: only with small docs */
	const int ranked_index = m > 0 && all[m - 1] < (1u << 20);
	ref_lengths lengths = {all, lens_of, m, 1.2, 0.75, 0.0};
	if (ranked_index) {
		uint64_t total = 0;
		for (size_t i = 0; i < m; i++) total += lens_of[i] = 1 + take(&s, 100);
		if (take(&s, 4) == 0) lengths.k1 = take(&s, 8) == 0 ? GP_BM25_K1_MAX : (double)take(&s, 1000) / 100.0;
		if (take(&s, 4) == 0) lengths.b = take(&s, 11) / 10.0;
		lengths.avgdl = (double)total / (double)m;
		FUZZ_CHECK(gp_index_set_lengths(ix, all, lens_of, m, lengths.k1, lengths.b, &roomy, &err) == GP_OK);
	}

	/* the queries */
	uint32_t qterms[MAX_QUERIES * MAX_QTERMS];
	uint64_t at[MAX_QUERIES + 1] = {0};
	const size_t nq = 1 + take(&s, MAX_QUERIES);
	int op = 1 + (int)take(&s, 3);
	if (op == GP_IX_PHRASE && !ix->positional) op = GP_IX_AND;
	for (size_t q = 0; q < nq; q++) {
		size_t nt = 1 + take(&s, MAX_QTERMS);
		for (size_t i = 0; i < nt; i++) {
			uint32_t t = take(&s, n_terms + 1);
			qterms[at[q] + i] = t == n_terms ? GP_IX_NO_TERM : t;
		}
		at[q + 1] = at[q] + nt;
	}
	const uint32_t limit = ranked_index && op != GP_IX_PHRASE && take(&s, 2) ? 1 + take(&s, 8) : 0;
	const int count_only = limit == 0 && take(&s, 4) == 0;   /* count() asks for every match */
	gp_query_batch batch = {op, nq, qterms, at, count_only, limit};
	/* at times a budget the answers may not fit: then GP_ENOMEM, never a wrong answer */
	gp_budget budget = roomy;
	if (take(&s, 4) == 0) {
		budget.memory_left = take(&s, 4096);
		budget.max_result = take(&s, 1u << 16);
		budget.face = take(&s, 2) ? &test_face : NULL;
	}
	gp_answers a;
	int rc = gp_index_query_host(ix, &batch, &budget, &a, &err);
	if (rc != GP_OK) {
		FUZZ_CHECK(rc == GP_ENOMEM && err.code == GP_ENOMEM && budget.max_result != roomy.max_result);
		FUZZ_CHECK(strcmp(err.format, "memory") == 0 && err.rule[0]);
	} else {
		FUZZ_CHECK(a.n_queries == nq && a.at[0] == 0);
		for (size_t q = 0; q < nq; q++) {
			scored want[MAX_QTERMS * MAX_POSTINGS];
			size_t n = ref_query(refs, qterms + at[q], (size_t)(at[q + 1] - at[q]), op, limit, ix->positional, &lengths, want);
			uint64_t got = a.at[q + 1] - a.at[q];
			FUZZ_CHECK(got == n);
			for (size_t i = 0; i < n && !count_only; i++) {
				FUZZ_CHECK(a.docs[a.at[q] + i] == want[i].doc);
				if (limit) FUZZ_CHECK(a.scores[a.at[q] + i] == want[i].score && isfinite(want[i].score));
			}
		}
	}
	/* the same index saved as a version 2 file and read in place: the same answers (or the same
	 * refusal), its lists walked by the cursors over their blocks */
	fuzz_file file = {0};
	FUZZ_CHECK(gp_index_save(ix, GP_INDEX_FILE_VERSION, fuzz_collect, &file, &err) == GP_OK);
	gp_index *v2;
	FUZZ_CHECK(gp_index_load_mapped(file.p, file.n, &roomy, &v2, &err) == GP_OK);
	FUZZ_CHECK(v2->v2 && v2->n_docs == ix->n_docs && v2->n_postings == ix->n_postings);
	/* its terms are numbered in their bytes' order: the same query by the same terms */
	uint32_t qterms2[MAX_QUERIES * MAX_QTERMS];
	for (uint64_t i = 0; i < at[nq]; i++) {
		uint32_t t = qterms[i];
		qterms2[i] = t == GP_IX_NO_TERM ? t : gp_index_lookup(v2, names[t], term_lens[t]);
		FUZZ_CHECK(t == GP_IX_NO_TERM || qterms2[i] != GP_IX_NO_TERM);
	}
	gp_query_batch batch2 = batch;
	batch2.terms = qterms2;
	gp_answers b;
	int rc2 = gp_index_query_host(v2, &batch2, &budget, &b, &err);
	FUZZ_CHECK(rc2 == rc);
	if (rc == GP_OK) {
		FUZZ_CHECK(b.total == a.total && memcmp(b.at, a.at, (nq + 1) * 8) == 0);
		FUZZ_CHECK(count_only || memcmp(b.docs, a.docs, a.total * 4) == 0);
		FUZZ_CHECK(!limit || count_only || memcmp(b.scores, a.scores, a.total * 8) == 0);
		gp_answers_free(&b);
		gp_answers_free(&a);
	}
	FUZZ_CHECK(gp_index_verify(v2, &err) == GP_OK);
	v2->mapped = NULL;   /* the harness's buffer, freed here */
	gp_index_unref(v2);
	free(file.p);
	gp_index_unref(ix);
	for (uint32_t t = 0; t < n_terms; t++) free(blobs[t]);
	return 0;
}
