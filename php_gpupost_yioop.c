/* The glue of Yioop's way of reading postings (API.md "Yioop's slices"): a slice of a term's
 * postings from a byte offset, a seek to the first posting at or past a doc, and a batch of
 * slices. Host only: a slice is a few hundred postings, far below a device call's fixed cost. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "zend_exceptions.h"
#include "include/gpupost_codec.h"

typedef struct slice_options {
	bool by_words;   /* 'count' => 'words' (Yioop's) | 'postings' */
	bool legacy;     /* 'legacy' => true: the pre-2019 form */
	bool gallop;     /* 'gallop' => true (seek only): docIndexModified9 and Yioop's search */
} slice_options;

static bool bool_option(zval *v, const char *name, bool *out, uint32_t arg)
{
	if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
		zend_argument_type_error(arg, "option '%s' must be of type bool, %s given", name, zend_zval_type_name(v));
		return false;
	}
	*out = Z_TYPE_P(v) == IS_TRUE;
	return true;
}

static bool parse_slice_options(HashTable *opts, bool seek, slice_options *o, uint32_t arg)
{
	zend_string *key;
	zend_ulong ikey;
	zval *v;
	o->by_words = true;
	o->legacy = o->gallop = false;
	if (!opts) return true;
	ZEND_HASH_FOREACH_KEY_VAL(opts, ikey, key, v) {
		ZVAL_DEREF(v);
		if (key && !seek && zend_string_equals_literal(key, "count")) {
			if (Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), "words")) {
				o->by_words = true;
			} else if (Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), "postings")) {
				o->by_words = false;
			} else {
				zend_argument_value_error(arg, "option 'count' must be 'words' or 'postings'");
				return false;
			}
		} else if (key && zend_string_equals_literal(key, "legacy")) {
			if (!bool_option(v, "legacy", &o->legacy, arg)) return false;
		} else if (key && seek && zend_string_equals_literal(key, "gallop")) {
			if (!bool_option(v, "gallop", &o->gallop, arg)) return false;
		} else {
			unknown_option(arg, key, ikey);
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	if (o->gallop && o->legacy) {
		zend_argument_value_error(arg, "options 'gallop' and 'legacy' do not go together (docIndexModified9 reads today's form)");
		return false;
	}
	return true;
}

/* Byte offsets into the postings as word indices: whole words, inside the string. */
static bool word_offsets(size_t len, zend_long offset, zend_long last, size_t *from, size_t *to,
                         uint32_t offset_arg)
{
	if (len % 4) {
		zend_argument_value_error(1, "must be whole 4-byte words (%zu bytes given)", len);
		return false;
	}
	if (offset < 0 || offset % 4 || (zend_ulong)offset >= len) {
		zend_argument_value_error(offset_arg, "must be a multiple of 4 within the postings (0 to %zd)", (ssize_t)len - 4);
		return false;
	}
	if (last < 0 || last % 4 || (zend_ulong)last >= len) {
		zend_argument_value_error(offset_arg + 1, "must be a multiple of 4 within the postings (0 to %zd)", (ssize_t)len - 4);
		return false;
	}
	*from = (size_t)offset / 4;
	*to = (size_t)last / 4;
	return true;
}

/* One slice as [docs, positions, offsets, next]: its postings found, checked, sized against
 * the budget, then decoded one by one (each at most 24 values a word). */
static bool slice_to_zval(const uint8_t *sec, size_t nwords, size_t from, size_t last, uint64_t limit,
                          zend_long mode, const slice_options *o, const gp_ctx *ctx, uint64_t *built, zval *rv)
{
	gp_error err;
	/* each posting takes a word of [from, last] (the first may begin before `from`), and counts */
	size_t room = last >= from ? last - from + 1 : 0;
	if (limit < room) room = (size_t)limit;
	if (!fits_budget(ctx, 0, (uint64_t)room * 2 * sizeof(size_t), "the slice's postings")) return false;
	size_t *starts = safe_emalloc(room + 1, 2 * sizeof(size_t), 0), *ends = starts + room + 1, next;
	size_t k = gp_yioop_slice(sec, nwords, from, last, limit, o->by_words, starts, ends, room, &next, &err);
	bool ok = false;
	int64_t *pos = NULL;
	if (k == (size_t)-1) goto fail;
	uint64_t php = 3 * gp_php_list_bytes(k) + gp_php_map_bytes(4), most = 0;
	for (size_t i = 0; i < k; i++) {
		gp_mod9_counts c;
		if (gp_mod9_measure(sec + 4 * starts[i], 4 * (ends[i] - starts[i]), 1, &c, &err) != GP_OK) {
			err.offset += 4 * starts[i];
			goto fail;
		}
		if (c.values > most) most = c.values;
		if (mode == GP_MODE_POSTINGS) php = gp_add_sat(php, gp_php_list_bytes(c.values));
	}
	/* *built: the arrays of the batch's slices before this one, which the room measured at the
	 * batch's start must hold too */
	if (!fits_budget(ctx, gp_add_sat(*built, php), (uint64_t)most * 8, "the slice's arrays")) goto done;
	*built = gp_add_sat(*built, php);
	pos = safe_emalloc((size_t)most + 1, sizeof(int64_t), 0);
	zval docs, positions, offsets;
	array_init_size(&docs, (uint32_t)k);
	array_init_size(&offsets, (uint32_t)k);
	if (mode == GP_MODE_POSTINGS) array_init_size(&positions, (uint32_t)k);
	for (size_t i = 0; i < k; i++) {
		int64_t doc;
		uint32_t vstart[2];
		uint8_t combined;
		gp_mod9_decode_postings(sec + 4 * starts[i], 4 * (ends[i] - starts[i]), &doc, vstart, &combined, pos, 0);
		size_t first = combined ? 0 : 1, n = vstart[1] - first;
		if (o->legacy) gp_yioop_legacy_posting(&doc, combined, pos + first, n);
		add_next_index_long(&docs, (zend_long)doc);
		add_next_index_long(&offsets, (zend_long)(4 * starts[i]));
		if (mode == GP_MODE_POSTINGS) {
			zval p;
			packed_from_i64(&p, pos + first, n);
			add_next_index_zval(&positions, &p);
		}
	}
	array_init_size(rv, 4);
	add_assoc_zval(rv, "docs", &docs);
	if (mode == GP_MODE_POSTINGS) add_assoc_zval(rv, "positions", &positions);
	add_assoc_zval(rv, "offsets", &offsets);
	add_assoc_long(rv, "next", (zend_long)(4 * next));
	ok = true;
	goto done;
fail:
	gpupost_throw(&err, NULL);
done:
	if (pos) efree(pos);
	efree(starts);
	return ok;
}

static bool slice_mode(zend_long mode, uint32_t arg)
{
	if (mode != GP_MODE_DOCS && mode != GP_MODE_POSTINGS) {
		zend_argument_value_error(arg, "must be GPUPOST_DOCS or GPUPOST_POSTINGS");
		return false;
	}
	return true;
}

static bool slice_limit(zend_long limit, uint32_t arg)
{
	if (limit < 1) {
		zend_argument_value_error(arg, "must be at least 1");
		return false;
	}
	return true;
}

GP_FUNCTION(gpu_postings_slice)
{
	zend_string *postings;
	zend_long offset, last, limit = 200, mode = GP_MODE_POSTINGS;
	HashTable *opts = NULL;
	slice_options o;
	size_t from, to;
	gp_ctx ctx;
	ZEND_PARSE_PARAMETERS_START(3, 6)
		Z_PARAM_STR(postings)
		Z_PARAM_LONG(offset)
		Z_PARAM_LONG(last)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(limit)
		Z_PARAM_LONG(mode)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	if (!word_offsets(ZSTR_LEN(postings), offset, last, &from, &to, 2) || !slice_limit(limit, 4) ||
	    !slice_mode(mode, 5) || !parse_slice_options(opts, false, &o, 6)) {
		RETURN_THROWS();
	}
	uint64_t built = 0;
	call_ctx(&ctx, 1);
	if (!slice_to_zval((const uint8_t *)ZSTR_VAL(postings), ZSTR_LEN(postings) / 4, from, to, (uint64_t)limit,
	                   mode, &o, &ctx, &built, return_value)) {
		RETURN_THROWS();
	}
	call_end();
}

/* The seek of a request: 1 with *at, 0 when no posting qualifies, -1 thrown. */
static int seek_words(const uint8_t *sec, size_t nwords, size_t from, size_t to, zend_long doc,
                      const slice_options *o, size_t *at, int64_t *found)
{
	gp_error err;
	int reader = o->gallop ? GP_YIOOP_GALLOP : o->legacy ? GP_YIOOP_LEGACY : GP_YIOOP_UNPACK;
	int rc = gp_yioop_seek(sec, nwords, from, to, (int64_t)doc, reader, at, found, &err);
	if (rc < 0) {
		gpupost_throw(&err, NULL);
		return -1;
	}
	return rc;
}

GP_FUNCTION(gpu_postings_seek)
{
	zend_string *postings;
	zend_long offset, last, doc;
	HashTable *opts = NULL;
	slice_options o;
	size_t from, to, at;
	int64_t found;
	ZEND_PARSE_PARAMETERS_START(4, 5)
		Z_PARAM_STR(postings)
		Z_PARAM_LONG(offset)
		Z_PARAM_LONG(last)
		Z_PARAM_LONG(doc)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	if (!word_offsets(ZSTR_LEN(postings), offset, last, &from, &to, 2) || !parse_slice_options(opts, true, &o, 5)) {
		RETURN_THROWS();
	}
	int rc = seek_words((const uint8_t *)ZSTR_VAL(postings), ZSTR_LEN(postings) / 4, from, to, doc, &o, &at, &found);
	if (rc < 0) RETURN_THROWS();
	if (rc == 0) RETURN_FALSE;
	array_init_size(return_value, 2);
	add_assoc_long(return_value, "offset", (zend_long)(4 * at));
	add_assoc_long(return_value, "doc", (zend_long)found);
}

/* One request of a batch: [offset, last_offset, limit] or [offset, last_offset, limit, doc]. */
static bool batch_request(zval *req, zend_long *v, size_t *count)
{
	zval *x;
	*count = 0;
	if (Z_TYPE_P(req) == IS_ARRAY) {
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(req), x) {
			ZVAL_DEREF(x);
			if (*count == 4 || Z_TYPE_P(x) != IS_LONG) {
				*count = 0;
				break;
			}
			v[(*count)++] = Z_LVAL_P(x);
		} ZEND_HASH_FOREACH_END();
	}
	if (*count < 3) {
		zend_argument_value_error(2, "must hold requests [offset, last_offset, limit] or [offset, last_offset, limit, doc] of ints");
		return false;
	}
	return true;
}

GP_FUNCTION(gpu_postings_slice_batch)
{
	zend_string *postings;
	HashTable *requests, *opts = NULL;
	zend_long mode = GP_MODE_POSTINGS;
	slice_options o;
	gp_ctx ctx;
	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_STR(postings)
		Z_PARAM_ARRAY_HT(requests)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(mode)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	if (!slice_mode(mode, 3) || !parse_slice_options(opts, false, &o, 4)) RETURN_THROWS();
	const uint8_t *sec = (const uint8_t *)ZSTR_VAL(postings);
	size_t len = ZSTR_LEN(postings), nwords = len / 4;
	call_ctx(&ctx, zend_hash_num_elements(requests));
	uint64_t built = gp_php_map_bytes(zend_hash_num_elements(requests));   /* the batch's own array */
	array_init_like(return_value, requests);
	zend_string *key;
	zend_ulong ikey;
	zval *req;
	ZEND_HASH_FOREACH_KEY_VAL(requests, ikey, key, req) {
		ZVAL_DEREF(req);
		zend_long v[4];
		size_t count, from, to, at;
		int64_t found;
		zval one;
		if (!batch_request(req, v, &count) || !word_offsets(len, v[0], v[1], &from, &to, 2) ||
		    !slice_limit(v[2], 2)) {
			goto fail;
		}
		if (count == 4) {
			int rc = seek_words(sec, nwords, from, to, v[3], &o, &at, &found);
			if (rc < 0) goto fail;
			from = rc ? at : to + 1;   /* none: an empty slice that resumes past the list */
		}
		if (!slice_to_zval(sec, nwords, from, to, (uint64_t)v[2], mode, &o, &ctx, &built, &one)) {
			goto fail;
		}
		array_add_like(return_value, requests, key, ikey, &one);
	} ZEND_HASH_FOREACH_END();
	call_end();
	return;
fail:
	zval_ptr_dtor(return_value);
	ZVAL_UNDEF(return_value);
	call_end();
	RETURN_THROWS();
}
