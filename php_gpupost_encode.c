/* The glue of gpu_encode_postings: options parsed, values checked by the codecs (a code and a
 * position, messages built here), the output's size checked against the budget, then encoded. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "zend_smart_str.h"
#include "include/gpupost_codec.h"

/* --- encoding --- */

typedef struct encode_options {
	zend_long delta;  /* S9, VBYTE, GROUP_VARINT */
	double c;         /* QS */
	zend_long word_bits, nbits; /* WAH; nbits -1: the last row + 1 */
	bool combined;    /* MOD9 POSTINGS: Yioop's combined form where packPosting takes it */
} encode_options;

/* Options per API.md: 'delta' for S9, VBYTE and GROUP_VARINT, 'c' for QS, 'word_bits' and 'nbits' for WAH, 'combined'
 * for MOD9 postings; anything else is a ValueError. */
static bool parse_options(HashTable *options, zend_long format, zend_long mode, encode_options *o)
{
	zend_string *key;
	zend_ulong idx;
	zval *v;
	o->delta = 0;
	o->c = 1.0;
	o->word_bits = 32;
	o->nbits = -1;
	o->combined = true;
	if (!options) return true;
	ZEND_HASH_FOREACH_KEY_VAL(options, idx, key, v) {
		ZVAL_DEREF(v);
		if (key && (format == GP_FORMAT_S9 || format == GP_FORMAT_VBYTE || format == GP_FORMAT_GROUP_VARINT) &&
		    zend_string_equals_literal(key, "delta")) {
			if (Z_TYPE_P(v) != IS_LONG || Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > 2) {
				zend_argument_value_error(4, "option \"delta\" must be 0, 1 or 2");
				return false;
			}
			o->delta = Z_LVAL_P(v);
		} else if (key && format == GP_FORMAT_QS && zend_string_equals_literal(key, "c")) {
			if ((Z_TYPE_P(v) != IS_LONG && Z_TYPE_P(v) != IS_DOUBLE) || !(zval_get_double(v) > 0) ||
			    !zend_finite(zval_get_double(v))) {
				zend_argument_value_error(4, "option \"c\" must be a positive finite number");
				return false;
			}
			o->c = zval_get_double(v);
		} else if (key && format == GP_FORMAT_WAH && zend_string_equals_literal(key, "word_bits")) {
			if (Z_TYPE_P(v) != IS_LONG || (Z_LVAL_P(v) != 32 && Z_LVAL_P(v) != 64)) {
				zend_argument_value_error(4, "option \"word_bits\" must be 32 or 64");
				return false;
			}
			o->word_bits = Z_LVAL_P(v);
		} else if (key && format == GP_FORMAT_WAH && zend_string_equals_literal(key, "nbits")) {
			if (Z_TYPE_P(v) != IS_LONG || Z_LVAL_P(v) < 0) {
				zend_argument_value_error(4, "option \"nbits\" must be an integer >= 0");
				return false;
			}
			o->nbits = Z_LVAL_P(v);
		} else if (key && format == GP_FORMAT_MOD9 && mode == GP_MODE_POSTINGS && zend_string_equals_literal(key, "combined")) {
			if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
				zend_argument_value_error(4, "option \"combined\" must be true or false");
				return false;
			}
			o->combined = Z_TYPE_P(v) == IS_TRUE;
		} else if (key) {
			zend_argument_value_error(4, "contains unknown option \"%s\" for this format", ZSTR_VAL(key));
			return false;
		} else {
			zend_argument_value_error(4, "contains unknown option " ZEND_ULONG_FMT " for this format", idx);
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* A string for len bytes of output, once they fit the call's budget (an output's size follows
 * the options, not the input: QS's c, WAH's nbits); NULL with the exception otherwise. */
static zend_string *output_string(size_t len, const char *what)
{
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	return fits_budget(&ctx, (uint64_t)len + 32, 0, what) ? zend_string_alloc(len, 0) : NULL;
}

static zend_string *mod9_encode_values(HashTable *data)
{
	size_t n;
	int64_t *in = ints_from_array(data, 1, &n);
	if (!in) return NULL;
	size_t at;
	if (gp_mod9_check_values(in, n, &at) != GP_OK) {
		zend_argument_value_error(1, "must hold integers from 1 to 268435455 for GPUPOST_MOD9, "
		                          ZEND_LONG_FMT " found at position %zu", (zend_long)in[at], at);
		efree(in);
		return NULL;
	}
	uint32_t *v = safe_emalloc(n + 1, sizeof(uint32_t), 0);
	for (size_t i = 0; i < n; i++) v[i] = (uint32_t)in[i];
	efree(in);
	zend_string *out = zend_string_safe_alloc(n + 1, 4, 0, 0);
	size_t len = gp_mod9_encode_values(v, n, (uint8_t *)ZSTR_VAL(out));
	efree(v);
	out = zend_string_truncate(out, len, 0);
	ZSTR_VAL(out)[len] = '\0';
	return out;
}

zend_string *mod9_encode_postings(HashTable *data, bool combine, uint32_t arg, const char *where)
{
	smart_str out = {0};
	zend_string *key;
	zend_ulong doc;
	zval *positions;
	ZEND_HASH_FOREACH_KEY_VAL(data, doc, key, positions) {
		size_t n, nv;
		const char *why = NULL;
		int64_t *pos;
		ZVAL_DEREF(positions);
		if (key) {
			zend_argument_value_error(arg, "must be [doc_index => [positions, ...]] with int doc indexes, %s\"%s\" found", where, ZSTR_VAL(key));
			goto fail;
		}
		if (Z_TYPE_P(positions) != IS_ARRAY) {
			zend_argument_type_error(arg, "must map each doc index to an array of positions, %s%s given", where, zend_zval_type_name(positions));
			goto fail;
		}
		if (!(pos = ints_from_array(Z_ARRVAL_P(positions), arg, &n))) goto fail;
		uint32_t *v = safe_emalloc(n + 1, sizeof(uint32_t), 0);
		nv = gp_mod9_posting_values((int64_t)(zend_long)doc, pos, n, combine, v, &why);
		efree(pos);
		if (nv == 0) {
			efree(v);
			zend_argument_value_error(arg, "%sdoc " ZEND_LONG_FMT " cannot be encoded: %s", where, (zend_long)doc, why);
			goto fail;
		}
		smart_str_alloc(&out, gp_mod9_encode_bound(nv), 0);
		ZSTR_LEN(out.s) += gp_mod9_encode_values(v, nv, (uint8_t *)ZSTR_VAL(out.s) + ZSTR_LEN(out.s));
		efree(v);
	} ZEND_HASH_FOREACH_END();
	smart_str_0(&out);
	return out.s ? out.s : ZSTR_EMPTY_ALLOC();
fail:
	smart_str_free(&out);
	return NULL;
}

/* The containers with a delta rule: the list checked and encoded by the codec (0 with the first
 * position that cannot be stored), into a string of at most `bound` bytes. */
typedef size_t (*delta_encode_fn)(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, size_t *at);

static size_t s9_encode_at(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, size_t *at)
{
	const char *why;
	return gp_s9_encode(x, n, delta, out, &why, at);
}

static zend_string *delta_encode(HashTable *data, zend_long delta, const char *name, size_t per_value,
                                 delta_encode_fn encode, const char *rule)
{
	size_t n, at = 0;
	int64_t *x = ints_from_array(data, 1, &n);
	if (!x) return NULL;
	zend_string *out = output_string(12 + per_value * n + per_value, "the encoded list");
	size_t len = out ? encode(x, n, (uint32_t)delta, (uint8_t *)ZSTR_VAL(out), &at) : 0;
	efree(x);
	if (!out) return NULL;
	if (len == 0) {
		zend_string_efree(out);
		zend_argument_value_error(1, "cannot be encoded as GPUPOST_%s with delta " ZEND_LONG_FMT
		                          " at position %zu: %s", name, delta, at, rule);
		return NULL;
	}
	out = zend_string_truncate(out, len, 0);
	ZSTR_VAL(out)[len] = '\0';
	return out;
}

static zend_string *container_encode(HashTable *data, zend_long format, zend_long delta)
{
	static const char *const rules32[3] = {"values must be 0..2^32-1", "values must be non-decreasing from 0 and at most 2^32-1",
	                                       "values must be strictly increasing from 0 and at most 2^32-1"};
	static const char *const rules28[3] = {"values must be 0..2^28-1", "values must be non-decreasing from 0, gaps below 2^28",
	                                       "values must be strictly increasing from 0, gaps below 2^28"};
	if (format == GP_FORMAT_S9) return delta_encode(data, delta, "S9", 4, s9_encode_at, rules28[delta]);
	if (format == GP_FORMAT_VBYTE) {
		return delta_encode(data, delta, "VBYTE", GP_VBYTE_MAX_BYTES, gp_vbyte_encode, rules32[delta]);
	}
	/* a group of four values takes at most 17 bytes: 4.25 a value, and a group's worth more */
	return delta_encode(data, delta, "GROUP_VARINT", 5, gp_gvarint_encode, rules32[delta]);
}

static zend_string *qs_encode(HashTable *data, double c)
{
	size_t n;
	int64_t *x = ints_from_array(data, 1, &n);
	if (!x) return NULL;
	size_t at;
	if (gp_qs_check_values(x, n, &at) != GP_OK) {
		if (at == n) {
			zend_argument_value_error(1, "holds more than 2^32-1 values");
		} else {
			zend_argument_value_error(1, "must be a non-decreasing list of integers from 0 to 4294967295 "
			                          "for GPUPOST_QS, " ZEND_LONG_FMT " found at position %zu", (zend_long)x[at], at);
		}
		efree(x);
		return NULL;
	}
	uint32_t *v = safe_emalloc(n + 1, sizeof(uint32_t), 0);
	for (size_t i = 0; i < n; i++) v[i] = (uint32_t)x[i];
	efree(x);
	uint32_t l = gp_qs_choose_l(n ? v[n - 1] : 0, n, c);
	size_t len = gp_qs_encoded_size(n ? v[n - 1] : 0, n, l);
	zend_string *out = output_string(len, "the encoded list");
	if (!out) {
		efree(v);
		return NULL;
	}
	memset(ZSTR_VAL(out), 0, len + 1);
	gp_qs_encode(v, n, l, (uint8_t *)ZSTR_VAL(out));
	efree(v);
	return out;
}

static zend_string *wah_encode(HashTable *data, const encode_options *o)
{
	size_t n;
	int64_t *rows = ints_from_array(data, 1, &n);
	if (!rows) return NULL;
	uint64_t nbits = o->nbits >= 0 ? (uint64_t)o->nbits : (n ? (uint64_t)rows[n - 1] + 1 : 0);
	size_t at;
	if (gp_wah_check_rows(rows, n, nbits, &at) != GP_OK) {
		if (at < n) {
			zend_argument_value_error(1, "must be a strictly increasing list of rows >= 0 for GPUPOST_WAH, "
			                          ZEND_LONG_FMT " found at position %zu", (zend_long)rows[at], at);
		} else {
			zend_argument_value_error(4, "option \"nbits\" (" ZEND_LONG_FMT ") must be above the last row " ZEND_LONG_FMT,
			                          o->nbits, (zend_long)rows[n - 1]);
		}
		efree(rows);
		return NULL;
	}
	size_t len = gp_wah_encode(rows, n, nbits, (uint32_t)o->word_bits, NULL);
	zend_string *out = output_string(len, "the encoded bitmap");
	if (!out) {
		efree(rows);
		return NULL;
	}
	gp_wah_encode(rows, n, nbits, (uint32_t)o->word_bits, (uint8_t *)ZSTR_VAL(out));
	ZSTR_VAL(out)[len] = '\0';
	efree(rows);
	return out;
}

GP_FUNCTION(gpu_encode_postings)
{
	HashTable *data, *options = NULL;
	zend_long format = GP_FORMAT_MOD9, mode = GP_MODE_VALUES;
	zend_string *out;
	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ARRAY_HT(data)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(format)
		Z_PARAM_LONG(mode)
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();
	if (!check_format_mode(format, mode, 2, 3)) RETURN_THROWS();
	if (mode == GP_MODE_DOCS && format == GP_FORMAT_MOD9) {
		zend_argument_value_error(3, "must be GPUPOST_VALUES or GPUPOST_POSTINGS for encoding");
		RETURN_THROWS();
	}
	encode_options o;
	if (!parse_options(options, format, mode, &o)) RETURN_THROWS();
	if (format == GP_FORMAT_S9 || format == GP_FORMAT_VBYTE || format == GP_FORMAT_GROUP_VARINT) {
		out = container_encode(data, format, o.delta);
	} else if (format == GP_FORMAT_QS) {
		out = qs_encode(data, o.c);
	} else if (format == GP_FORMAT_WAH) {
		out = wah_encode(data, &o);
	} else {
		out = mode == GP_MODE_VALUES ? mod9_encode_values(data) : mod9_encode_postings(data, o.combined, 1, "");
	}
	if (!out) RETURN_THROWS();
	RETURN_STR(out);
}

