/* Yioop's search over a bundle, as its PhraseModel computes it (Yioop 2021): the walks'
 * matches (index/gp_yioop_walk.c) gathered in GroupIterator's blocks and groups, and
 * getSummariesByHash's reciprocal rank fusion. docs/YIOOP.md lists the quirks kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_yioop_walk.h"

#define YS_NAME "Yioop search"

/* --- small sets of 8-byte keys (a URL's hash, a content hash) --- */

typedef struct key_set {
	uint64_t *slot;   /* key + 1 would collide with 0: keys are stored with `used` beside */
	uint8_t *used;
	size_t cap, n;
} key_set;

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
	if (f >= 4) return f - 4 < p->n_ranks ? face->round_decimal(r->ranks[p->rank_at + f - 4], 4) : 0;
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
	for (size_t c = 0; c < n_queries; c++) done_walk[c] = !gp_yioop_walk_init(&ws[c], ix, &qs[c], face, summary_attr);
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
				if (!gp_yioop_walk_step(&ws[c], &it, &got, &rc)) {
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
				gp_yioop_unpack_aux(w, w->y->aux + w->y->aux_at[lead], (size_t)(8 * (lead_keys - 3)));
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
	if ((rc = gp_yioop_count_matches(ws, n_queries, qs, ix, face, summary_attr, &r->matches, &why)) != GP_OK) {
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
