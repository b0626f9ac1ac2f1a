/* GpuPost\Index::yioopSearch (API.md "Yioop bundles"): a word struct as Yioop's PhraseModel
 * builds one, answered by the engine (index/gp_yioop_search.c) with the pages getSummariesByHash
 * would rank. PHP's own number_format and sort are handed to it, so that its scores and its ties
 * fall as Yioop's do under this PHP. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "zend_exceptions.h"
#include "zend_sort.h"
#include "index/gp_index.h"
#include "index/gp_yioop_search.h"
#include "query/gp_yioop_snippet.h"
#include "ext/standard/php_math.h"

double gpupost_round_decimal(double v, int places)
{
	zend_string *text = _php_math_number_format(v, places, '.', ',');
	double d = zend_strtod(ZSTR_VAL(text), NULL);
	zend_string_release(text);
	return d;
}

/* usort()'s algorithm */
static void php_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
                     void (*swap)(void *, void *))
{
	zend_sort(base, n, size, (compare_func_t)cmp, (swap_func_t)swap);
}

/* The word ids of a list (20-byte strings, as Yioop's unbase64Hash gives them) as term ids into
 * out (GP_IX_NO_TERM where the bundle has none), or false with a TypeError. */
static bool word_ids(const gp_index *ix, HashTable *list, const char *field, uint32_t *out, zval **id, size_t cap,
                     size_t *n)
{
	zval *v;
	*n = 0;
	ZEND_HASH_FOREACH_VAL(list, v) {
		ZVAL_DEREF(v);
		if (Z_TYPE_P(v) != IS_STRING) {
			zend_argument_type_error(1, "must hold %s as word id strings, %s given", field, zend_zval_type_name(v));
			return false;
		}
		if (*n == cap) {
			zend_argument_value_error(1, "must hold at most %zu %s", cap, field);
			return false;
		}
		id[*n] = v;
		out[(*n)++] = gp_index_lookup(ix, Z_STRVAL_P(v), Z_STRLEN_P(v));
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* Option 'generations' => [word id => [generation, ...]]: where Yioop's iterators see each word
 * (its IndexManager::getWordInfo), each list read once, sorted and its repeats dropped, shared
 * by every struct that names the word. */
typedef struct seen_table {
	HashTable by_id;          /* word id => its list's index */
	uint32_t **lists;
	size_t *lens, n;
} seen_table;

static int u32_order(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void seen_free(seen_table *t)
{
	for (size_t i = 0; i < t->n; i++) efree(t->lists[i]);
	if (t->lists) efree(t->lists);
	if (t->lens) efree(t->lens);
	zend_hash_destroy(&t->by_id);
}

/* The option read into *t (freed by seen_free whatever the outcome): false with an error. */
static bool seen_read(HashTable *opt, const gp_ctx *ctx, seen_table *t)
{
	const uint32_t n = zend_hash_num_elements(opt);
	zend_hash_init(&t->by_id, n, NULL, NULL, 0);
	t->lists = ecalloc(n + 1, sizeof(*t->lists));
	t->lens = ecalloc(n + 1, sizeof(*t->lens));
	t->n = 0;
	uint64_t total = 0;
	zval *list;
	ZEND_HASH_FOREACH_VAL(opt, list) {
		ZVAL_DEREF(list);
		if (Z_TYPE_P(list) == IS_ARRAY) total += zend_hash_num_elements(Z_ARRVAL_P(list));
	} ZEND_HASH_FOREACH_END();
	if (!fits_budget(ctx, total * sizeof(uint32_t) + (uint64_t)n * 64, 0, "option 'generations'")) return false;
	zend_string *key;
	ZEND_HASH_FOREACH_STR_KEY_VAL(opt, key, list) {
		ZVAL_DEREF(list);
		if (!key || Z_TYPE_P(list) != IS_ARRAY) {
			zend_argument_type_error(2, "option 'generations' must map word ids to lists of generations");
			return false;
		}
		uint32_t *g = safe_emalloc(zend_hash_num_elements(Z_ARRVAL_P(list)) + 1, sizeof(uint32_t), 0);
		size_t k = 0;
		t->lists[t->n] = g;
		zval *v;
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(list), v) {
			ZVAL_DEREF(v);
			if (Z_TYPE_P(v) != IS_LONG || Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > UINT32_MAX) {
				t->n++;
				zend_argument_value_error(2, "option 'generations' must hold generations as non-negative ints");
				return false;
			}
			g[k++] = (uint32_t)Z_LVAL_P(v);
		} ZEND_HASH_FOREACH_END();
		qsort(g, k, sizeof(*g), u32_order);
		size_t u = 0;
		for (size_t i = 0; i < k; i++) if (u == 0 || g[u - 1] != g[i]) g[u++] = g[i];
		t->lens[t->n] = u;
		zval index;
		ZVAL_LONG(&index, (zend_long)t->n);
		zend_hash_update(&t->by_id, key, &index);
		t->n++;
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* The query's words (KEYS then DISALLOW_KEYS: ids) given their lists from t */
static void seen_generations(const seen_table *t, zval *const *ids, size_t n, const uint32_t **gens, size_t *n_gens)
{
	for (size_t i = 0; i < n; i++) {
		zval *at = zend_hash_find(&t->by_id, Z_STR_P(ids[i]));
		gens[i] = at ? t->lists[Z_LVAL_P(at)] : NULL;
		n_gens[i] = at ? t->lens[Z_LVAL_P(at)] : 0;
	}
}

/* QUOTE_POSITIONS: a list of quotes, each [list index => words, "*N" => "*"] in Yioop's order */
static bool quote_positions(HashTable *quotes, int32_t *pairs, size_t *at, size_t cap, size_t quotes_cap,
                            size_t *n_quotes)
{
	zval *quote, *v;
	zend_string *key;
	zend_ulong index;
	size_t n = 0;
	*n_quotes = 0;
	at[0] = 0;
	ZEND_HASH_FOREACH_VAL(quotes, quote) {
		ZVAL_DEREF(quote);
		if (Z_TYPE_P(quote) != IS_ARRAY) {
			zend_argument_type_error(1, "must hold QUOTE_POSITIONS as arrays, %s given", zend_zval_type_name(quote));
			return false;
		}
		ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(quote), index, key, v) {
			ZVAL_DEREF(v);
			if (n == cap) {
				zend_argument_value_error(1, "must hold at most %zu quoted words", cap);
				return false;
			}
			if (Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), "*")) {
				pairs[2 * n] = -1;
				pairs[2 * n + 1] = -1;
			} else if (Z_TYPE_P(v) == IS_LONG && Z_LVAL_P(v) >= 0 && Z_LVAL_P(v) <= INT32_MAX) {
				/* a key that is no list index names no list (Yioop reads none there) */
				pairs[2 * n] = !key && index <= INT32_MAX ? (int32_t)index : -1;
				pairs[2 * n + 1] = (int32_t)Z_LVAL_P(v);
			} else {
				zend_argument_value_error(1, "must hold QUOTE_POSITIONS' lengths as non-negative ints or \"*\"");
				return false;
			}
			n++;
		} ZEND_HASH_FOREACH_END();
		if (*n_quotes == quotes_cap) {
			zend_argument_value_error(1, "must hold at most %zu quotes", quotes_cap);
			return false;
		}
		at[++*n_quotes] = n;
	} ZEND_HASH_FOREACH_END();
	return true;
}

static zval *struct_field(HashTable *ws, const char *name, size_t len)
{
	zval *v = zend_hash_str_find(ws, name, len);
	if (v) ZVAL_DEREF(v);
	return v && Z_TYPE_P(v) != IS_NULL ? v : NULL;
}

#define YS_MAX_WORDS 64

/* One word struct read: its ids and quotes, where its words' generation lists go */
typedef struct struct_read {
	uint32_t words[YS_MAX_WORDS], negated[YS_MAX_WORDS];
	zval *ids[2 * YS_MAX_WORDS];
	const uint32_t *gens[2 * YS_MAX_WORDS];
	size_t n_gens[2 * YS_MAX_WORDS];
	int32_t pairs[2 * YS_MAX_WORDS * 2];
	size_t quote_at[YS_MAX_WORDS + 1];
} struct_read;

/* ws (one of PhraseModel's word structs) into *q over *sr: false with an error */
static bool read_struct(const gp_index *ix, HashTable *ws, struct_read *sr, gp_yioop_query *q)
{
	*q = (gp_yioop_query){sr->words, 0, sr->negated, 0, sr->pairs, sr->quote_at, 0, 1.0, NULL, NULL};
	zval *v = struct_field(ws, "KEYS", 4);
	if (!v || Z_TYPE_P(v) != IS_ARRAY) {
		zend_argument_value_error(1, "must hold KEYS, a list of word ids");
		return false;
	}
	if (!word_ids(ix, Z_ARRVAL_P(v), "KEYS", sr->words, sr->ids, YS_MAX_WORDS, &q->n_words)) return false;
	if (q->n_words == 0) {
		zend_argument_value_error(1, "must hold at least one of KEYS");
		return false;
	}
	/* a word the bundle does not hold: an id past its terms, one for each different word */
	for (size_t i = 0; i < q->n_words; i++) {
		if (sr->words[i] != GP_IX_NO_TERM) continue;
		size_t first = 0;
		while (!zend_string_equals(Z_STR_P(sr->ids[first]), Z_STR_P(sr->ids[i]))) first++;
		sr->words[i] = GP_IX_NO_TERM - (uint32_t)first;
	}
	if ((v = struct_field(ws, "DISALLOW_KEYS", 13))) {
		if (Z_TYPE_P(v) != IS_ARRAY) {
			zend_argument_type_error(1, "must hold DISALLOW_KEYS as an array, %s given", zend_zval_type_name(v));
			return false;
		}
		if (!word_ids(ix, Z_ARRVAL_P(v), "DISALLOW_KEYS", sr->negated, sr->ids + q->n_words, YS_MAX_WORDS, &q->n_negated)) {
			return false;
		}
	}
	if ((v = struct_field(ws, "QUOTE_POSITIONS", 15))) {
		if (Z_TYPE_P(v) != IS_ARRAY) {
			zend_argument_type_error(1, "must hold QUOTE_POSITIONS as an array, %s given", zend_zval_type_name(v));
			return false;
		}
		if (!quote_positions(Z_ARRVAL_P(v), sr->pairs, sr->quote_at, 2 * YS_MAX_WORDS, YS_MAX_WORDS, &q->n_quotes)) {
			return false;
		}
	}
	if ((v = struct_field(ws, "WEIGHT", 6))) {
		/* a number, or a numeric string (what Yioop's "w:" meta word leaves there) */
		zend_long l;
		double d;
		const zend_uchar t = Z_TYPE_P(v) == IS_STRING ? is_numeric_string(Z_STRVAL_P(v), Z_STRLEN_P(v), &l, &d, false) : 0;
		if (Z_TYPE_P(v) != IS_LONG && Z_TYPE_P(v) != IS_DOUBLE && !t) {
			zend_argument_type_error(1, "must hold WEIGHT as a number or a numeric string, %s given", zend_zval_type_name(v));
			return false;
		}
		q->weight = t == IS_LONG ? (double)l : t == IS_DOUBLE ? d : zval_get_double(v);
	}
	return true;
}

void gpupost_yioop_search(const gp_index *ix, HashTable *arg, HashTable *options, const gp_ctx *ctx, zval *rv)
{
	/* one struct, or a list of them (a query's disjuncts, as PhraseModel splits it on "|") */
	const bool one = zend_hash_str_exists(arg, "KEYS", 4);
	const size_t n = one ? 1 : zend_hash_num_elements(arg);
	if (n == 0 || n > GP_YIOOP_MAX_STRUCTS) {
		zend_argument_value_error(1, "must be a word struct or a list of 1 to %d of them", GP_YIOOP_MAX_STRUCTS);
		return;
	}
	size_t to_retrieve = 200;
	int walk_order = 0;
	HashTable *seen = NULL;
	seen_table table;
	bool have_table = false;
	zval *v;
	if (options) {
		zend_string *key;
		zend_ulong ikey;
		ZEND_HASH_FOREACH_KEY_VAL(options, ikey, key, v) {
			ZVAL_DEREF(v);
			if (key && zend_string_equals_literal(key, "to_retrieve")) {
				if (Z_TYPE_P(v) != IS_LONG || Z_LVAL_P(v) < 1 || Z_LVAL_P(v) > 1000000) {
					zend_argument_value_error(2, "option 'to_retrieve' must be an int from 1 to 1000000");
					return;
				}
				to_retrieve = (size_t)Z_LVAL_P(v);
			} else if (key && zend_string_equals_literal(key, "fuse")) {
				if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
					zend_argument_type_error(2, "option 'fuse' must be a bool, %s given", zend_zval_type_name(v));
					return;
				}
				walk_order = Z_TYPE_P(v) == IS_FALSE;
			} else if (key && zend_string_equals_literal(key, "generations")) {
				if (Z_TYPE_P(v) != IS_ARRAY) {
					zend_argument_type_error(2, "option 'generations' must be an array, %s given", zend_zval_type_name(v));
					return;
				}
				seen = Z_ARRVAL_P(v);
			} else {
				unknown_option(2, key, ikey);
				return;
			}
		} ZEND_HASH_FOREACH_END();
	}
	struct_read *sr = ecalloc(n, sizeof(*sr));
	gp_yioop_query *qs = ecalloc(n, sizeof(*qs));
	size_t n_read = 0;
	bool ok = true;
	if (one) {
		ok = read_struct(ix, arg, &sr[0], &qs[0]);
		n_read = ok;
	} else {
		ZEND_HASH_FOREACH_VAL(arg, v) {
			ZVAL_DEREF(v);
			if (Z_TYPE_P(v) != IS_ARRAY) {
				zend_argument_type_error(1, "must hold word structs as arrays, %s given", zend_zval_type_name(v));
				ok = false;
				break;
			}
			if (!(ok = read_struct(ix, Z_ARRVAL_P(v), &sr[n_read], &qs[n_read]))) break;
			n_read++;
		} ZEND_HASH_FOREACH_END();
	}
	if (ok && seen) {
		have_table = true;
		ok = seen_read(seen, ctx, &table);
	}
	for (size_t c = 0; ok && seen && c < n_read; c++) {
		seen_generations(&table, sr[c].ids, qs[c].n_words + qs[c].n_negated, sr[c].gens, sr[c].n_gens);
		qs[c].gens = sr[c].gens;
		qs[c].n_gens = sr[c].n_gens;
	}
	if (!ok) goto out;
	const gp_yioop_face face = {gpupost_round_decimal, php_sort};
	gp_yioop_result r;
	gp_error err;
	int rc = gp_yioop_search(ix, qs, n_read, to_retrieve, walk_order, &face, &ctx->budget, &r, &err);
	if (rc != GP_OK) {
		gp_yioop_result_free(&r);
		gpupost_throw(&err, NULL);
		goto out;
	}
	/* a page: a map of seven, its list of docs and its user ranks */
	if (!fits_budget(ctx, gp_php_list_bytes(r.n_pages) + r.n_pages * (gp_php_map_bytes(7) + 2 * gp_php_list_bytes(1)) +
	                 gp_php_list_bytes(r.n_members) + gp_php_list_bytes(r.n_rank_values), 0, "the search's pages")) {
		gp_yioop_result_free(&r);
		goto out;
	}
	array_init_size(rv, 5);
	add_assoc_bool(rv, "covered", r.why == NULL);
	if (r.why) add_assoc_string(rv, "why", r.why);
	else add_assoc_null(rv, "why");
	add_assoc_bool(rv, "exhausted", r.exhausted);
	add_assoc_long(rv, "matches", (zend_long)r.matches);
	zval pages;
	array_init_size(&pages, (uint32_t)r.n_pages);
	for (size_t i = 0; i < r.n_pages; i++) {
		const gp_yioop_page *p = &r.pages[i];
		zval page, docs, ranks;
		array_init_size(&page, 7);
		array_init_size(&docs, (uint32_t)p->n_members);
		for (size_t m = 0; m < p->n_members; m++) add_next_index_long(&docs, (zend_long)r.members[p->first + m]);
		add_assoc_zval(&page, "docs", &docs);
		add_assoc_double(&page, "doc_rank", p->doc_rank);
		add_assoc_double(&page, "relevance", p->relevance);
		add_assoc_double(&page, "proximity", p->proximity);
		add_assoc_double(&page, "hash_sum_score", p->hash_sum_score);
		add_assoc_double(&page, "score", p->score);
		array_init_size(&ranks, (uint32_t)p->n_ranks);
		for (size_t j = 0; j < p->n_ranks; j++) add_next_index_double(&ranks, r.ranks[p->rank_at + j]);
		add_assoc_zval(&page, "user_ranks", &ranks);
		add_next_index_zval(&pages, &page);
	}
	add_assoc_zval(rv, "pages", &pages);
	gp_yioop_result_free(&r);
out:
	if (have_table) seen_free(&table);
	efree(sr);
	efree(qs);
}

/* gpu_yioop_snippet($text, $words, $length): Yioop's Model::getSnippets for text and words of
 * printable ASCII (the same string), null for any other text (Yioop's own code is to make it). */
GP_FUNCTION(gpu_yioop_snippet)
{
	zend_string *text;
	HashTable *words;
	zend_long length;
	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_STR(text)
		Z_PARAM_ARRAY_HT(words)
		Z_PARAM_LONG(length)
	ZEND_PARSE_PARAMETERS_END();
	if (length < 0) {
		zend_argument_value_error(3, "must be at least 0");
		RETURN_THROWS();
	}
	const uint32_t n = zend_hash_num_elements(words);
	const char **w = safe_emalloc(n + 1, sizeof(*w), 0);
	size_t *lens = safe_emalloc(n + 1, sizeof(*lens), 0);
	size_t k = 0;
	zval *v;
	ZEND_HASH_FOREACH_VAL(words, v) {
		ZVAL_DEREF(v);
		if (Z_TYPE_P(v) != IS_STRING) {
			efree(w);
			efree(lens);
			zend_argument_type_error(2, "must hold strings, %s given", zend_zval_type_name(v));
			RETURN_THROWS();
		}
		w[k] = Z_STRVAL_P(v);
		lens[k++] = Z_STRLEN_P(v);
	} ZEND_HASH_FOREACH_END();
	char *out;
	size_t out_len;
	gp_ctx ctx;
	gp_error err;
	call_ctx(&ctx, 1);
	int rc = gp_yioop_snippet(ZSTR_VAL(text), ZSTR_LEN(text), w, lens, k, (size_t)length, &ctx.budget, &out, &out_len, &err);
	call_end();
	efree(w);
	efree(lens);
	if (rc < 0) {
		if (err.code) gpupost_throw(&err, NULL);
		else zend_throw_exception(gpupost_exception_ce, "gpu_yioop_snippet(): out of memory", 0);
		RETURN_THROWS();
	}
	if (rc == 0) RETURN_NULL();
	RETVAL_STRINGL(out, out_len);
	free(out);
}
