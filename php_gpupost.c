/* gpupost: PHP glue only. Argument parsing, INI, phpinfo, exceptions, and turning the C
 * results of src/gp_dispatch.c into PHP arrays. No codec logic lives here. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"

#include "php_gpupost.h"
#include "src/gp_dispatch.h"
#include "codec/gp_mod9.h"
#include "codec/gp_qs.h"
#include "codec/gp_s9.h"
#include "codec/gp_wah.h"
#include "gpupost_arginfo.h"

ZEND_DECLARE_MODULE_GLOBALS(gpupost)

static zend_class_entry *gpupost_exception_ce;

/* A non-negative integer in decimal, with a K, M or G suffix where `quantity` (as memory_limit
 * writes sizes); anything else (a sign, another base, junk, a value past ZEND_LONG_MAX) is
 * refused, so that a typo can never become a negative or wrapped limit. */
static bool parse_ini_count(const zend_string *value, bool quantity, zend_long *out)
{
	const char *p = ZSTR_VAL(value), *end = p + ZSTR_LEN(value);
	zend_ulong v = 0, scale = 1;
	if (p == end) return false;
	if (quantity) {
		switch (end[-1]) {
		case 'k': case 'K': scale = (zend_ulong)1 << 10; end--; break;
		case 'm': case 'M': scale = (zend_ulong)1 << 20; end--; break;
		case 'g': case 'G': scale = (zend_ulong)1 << 30; end--; break;
		}
	}
	if (p == end) return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9' || v > ((zend_ulong)ZEND_LONG_MAX - (zend_ulong)(*p - '0')) / 10) return false;
		v = v * 10 + (zend_ulong)(*p - '0');
	}
	if (v > (zend_ulong)ZEND_LONG_MAX / scale) return false;
	*out = (zend_long)(v * scale);
	return true;
}

/* The INI handler of a count or size: a value parse_ini_count refuses leaves the previous one
 * (at start-up, the default) in force, with a warning that says so. */
static int update_ini_count(zend_ini_entry *entry, zend_string *new_value, void *mh_arg1,
                            void *mh_arg2, bool quantity, zend_long min)
{
	zend_long v;
	if (!parse_ini_count(new_value, quantity, &v) || v < min) {
		php_error_docref(NULL, E_WARNING, "%s must be %s from " ZEND_LONG_FMT " to " ZEND_LONG_FMT
		                 ", \"%s\" given; the value in force stays", ZSTR_VAL(entry->name),
		                 quantity ? "a byte count (digits, optionally K, M or G)" : "a decimal integer",
		                 min, (zend_long)ZEND_LONG_MAX, ZSTR_VAL(new_value));
		return FAILURE;
	}
	*(zend_long *)ZEND_INI_GET_ADDR() = v;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateMinDeviceValues)
{
	return update_ini_count(entry, new_value, mh_arg1, mh_arg2, false, 0);
}

static ZEND_INI_MH(OnUpdateByteCap)
{
	return update_ini_count(entry, new_value, mh_arg1, mh_arg2, true, 1);
}

static ZEND_INI_MH(OnUpdateByteKeep)
{
	return update_ini_count(entry, new_value, mh_arg1, mh_arg2, true, 0);
}

static ZEND_INI_MH(OnUpdateDevice)
{
	const char *v = ZSTR_VAL(new_value);
	int p, d;
	char tail;
	if (strcmp(v, "auto") && strcmp(v, "gpu") && strcmp(v, "cpu") && strcmp(v, "host") &&
	    sscanf(v, "%d:%d%c", &p, &d, &tail) != 2) {
		php_error_docref(NULL, E_WARNING,
		                 "gpupost.device must be auto, gpu, cpu, host or P:D, \"%s\" given; using auto", v);
		gp_configure_device("auto");
		return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
	}
	gp_configure_device(v);
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

PHP_INI_BEGIN()
	STD_PHP_INI_ENTRY("gpupost.device", "auto", PHP_INI_SYSTEM, OnUpdateDevice, device,
	                  zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.min_device_values", "65536", PHP_INI_ALL, OnUpdateMinDeviceValues,
	                  min_device_values, zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.max_result_bytes", "1G", PHP_INI_ALL, OnUpdateByteCap,
	                  max_result_bytes, zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.max_cached_bytes", "64M", PHP_INI_ALL, OnUpdateByteKeep,
	                  max_cached_bytes, zend_gpupost_globals, gpupost_globals)
PHP_INI_END()

/* --- errors --- */

static void gpupost_throw(const gp_error *err, const zval *key)
{
	if (err->code == GP_ENOMEM) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s", err->rule);
	} else if (err->code == GP_EDEVICE) {
		zend_throw_exception_ex(gpupost_exception_ce, err->cl_status, "OpenCL: %s", err->rule);
	} else if (key && Z_TYPE_P(key) == IS_STRING) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: blob '%s', byte %zu: %s",
		                        err->format, Z_STRVAL_P(key), err->offset, err->rule);
	} else if (key) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: blob " ZEND_LONG_FMT ", byte %zu: %s",
		                        err->format, Z_LVAL_P(key), err->offset, err->rule);
	} else {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: byte %zu: %s", err->format,
		                        err->offset, err->rule);
	}
}

/* Throws for err, naming the key of the blob it happened in. */
static void throw_for_blob(const gp_error *err, HashTable *keys)
{
	size_t i = 0;
	zend_string *skey;
	zend_ulong ikey;
	zval kz;
	ZEND_HASH_FOREACH_KEY(keys, ikey, skey) {
		if (i++ == err->blob) {
			if (skey) ZVAL_STR(&kz, skey); else ZVAL_LONG(&kz, (zend_long)ikey);
			gpupost_throw(err, &kz);
			return;
		}
	} ZEND_HASH_FOREACH_END();
	gpupost_throw(err, NULL);
}

static bool check_format_mode(zend_long format, zend_long mode, uint32_t format_arg, uint32_t mode_arg)
{
	if (format != GP_FORMAT_MOD9 && format != GP_FORMAT_S9 && format != GP_FORMAT_QS &&
	    format != GP_FORMAT_WAH) {
		zend_argument_value_error(format_arg, "must be a GPUPOST_* format constant");
		return false;
	}
	if (mode != GP_MODE_VALUES && mode != GP_MODE_DOCS && mode != GP_MODE_POSTINGS) {
		zend_argument_value_error(mode_arg, "must be GPUPOST_VALUES, GPUPOST_DOCS or GPUPOST_POSTINGS");
		return false;
	}
	if (format != GP_FORMAT_MOD9 && mode != GP_MODE_VALUES) {
		zend_argument_value_error(mode_arg, "must be GPUPOST_VALUES for this format (DOCS and POSTINGS are MOD9 only)");
		return false;
	}
	return true;
}

/* What memory_limit leaves now: the limit less what PHP's heap holds in use (Zend frees its cached
 * chunks before it refuses memory), less a slack for what the allocator rounds and leaves
 * unused: a chunk of 2 MiB, pages partly filled, each chunk's first page. */
static uint64_t memory_left(void)
{
	zend_long limit = PG(memory_limit);
	if (limit <= 0) return UINT64_MAX;
	size_t used = zend_memory_usage(false);
	if ((size_t)limit <= used) return 0;
	uint64_t left = (uint64_t)((size_t)limit - used);
	uint64_t slack = ((uint64_t)4 << 20) + left / 32;
	return left > slack ? left - slack : 0;
}

/* The policy of one call (gp_ctx): the INI settings, what memory_limit leaves, and how many
 * lists the call returns. */
static void call_ctx(gp_ctx *ctx, size_t lists)
{
	ctx->min_device_values = GPUPOST_G(min_device_values);
	ctx->budget.memory_left = memory_left();
	ctx->budget.max_result = (uint64_t)GPUPOST_G(max_result_bytes);
	ctx->budget.lists = lists;
}

/* After a call: what the process keeps for the next one back under gpupost.max_cached_bytes. */
static void call_end(void)
{
	gp_trim_cached((uint64_t)GPUPOST_G(max_cached_bytes));
}

/* A GpuPost\Exception naming the size and the limit, unless `what` fits the budget. */
static bool fits_budget(const gp_ctx *ctx, uint64_t php_bytes, uint64_t c_bytes, const char *what)
{
	gp_error err;
	if (gp_budget_check(&ctx->budget, php_bytes, c_bytes, what, &err) == GP_OK) return true;
	gpupost_throw(&err, NULL);
	return false;
}

/* --- C results to PHP arrays (packed fills: the array is the cost, so build it once) --- */

/* What blob b of r costs as the PHP value of its mode, exactly as it will be built. */
static uint64_t blob_php_bytes(const gp_result *r, size_t b, zend_long mode, size_t *longest)
{
	size_t nv = r->blob_values[b + 1] - r->blob_values[b];
	size_t p0 = r->blob_postings[b], np = r->blob_postings[b + 1] - p0;
	size_t n = mode == GP_MODE_VALUES ? nv : np;
	if (n > *longest) *longest = n;
	if (mode != GP_MODE_POSTINGS) return gp_php_list_bytes(n);
	uint64_t bytes = gp_php_map_bytes(np);
	const uint32_t *vstart = r->vstart.data;
	const uint8_t *combined = r->combined.data;
	for (size_t p = p0; p < p0 + np; p++) {
		size_t first = vstart[p] + (combined[p] ? 0 : 1);
		bytes = gp_add_sat(bytes, gp_php_list_bytes(vstart[p + 1] - first));
	}
	return bytes;
}

/* The C arrays a result holds while its PHP arrays are built. */
static uint64_t result_c_bytes(const gp_result *r)
{
	uint64_t bytes = (uint64_t)r->n_values * (r->values.width + r->pos.width);
	bytes += (uint64_t)r->n_postings * (r->docs.width + r->vstart.width + r->combined.width);
	return bytes + (uint64_t)(r->n_blobs + 1) * 16;
}

/* The exact check before any PHP array of a result is built: the arrays against what
 * memory_limit leaves now, and they and the C buffers together against
 * gpupost.max_result_bytes. `batch`: under one array keyed as the blobs were. */
static bool result_fits(const gp_result *r, zend_long mode, bool batch, const gp_ctx *ctx)
{
	size_t longest = 0;
	uint64_t php = batch ? gp_php_map_bytes(r->n_blobs) : 0;
	for (size_t b = 0; b < r->n_blobs; b++) php = gp_add_sat(php, blob_php_bytes(r, b, mode, &longest));
	if (longest >= HT_MAX_SIZE) {
		zend_throw_exception_ex(gpupost_exception_ce, 0,
		                        "decoded list of %zu entries exceeds PHP's array size limit", longest);
		return false;
	}
	gp_ctx now = *ctx;
	now.budget.memory_left = memory_left();   /* the C buffers were taken outside PHP's heap */
	return fits_budget(&now, php, result_c_bytes(r), "the decoded result's arrays");
}

/* A packed PHP list from a C array of any integer type. */
#define GP_DEFINE_PACKED_FROM(name, type)                                   \
	static void name(zval *rv, const type *v, size_t n)                     \
	{                                                                       \
		array_init_size(rv, (uint32_t)n);                                   \
		if (n == 0) return;                                                 \
		zend_hash_real_init_packed(Z_ARRVAL_P(rv));                         \
		ZEND_HASH_FILL_PACKED(Z_ARRVAL_P(rv)) {                             \
			for (size_t i = 0; i < n; i++) {                                \
				ZEND_HASH_FILL_SET_LONG((zend_long)v[i]);                   \
				ZEND_HASH_FILL_NEXT();                                      \
			}                                                               \
		} ZEND_HASH_FILL_END();                                             \
	}
GP_DEFINE_PACKED_FROM(packed_from_u32, uint32_t)
GP_DEFINE_PACKED_FROM(packed_from_i64, int64_t)

/* Elements [from, from + n) of a result's array (32-bit unsigned or 64-bit signed). */
static void packed_from_array(zval *rv, const gp_array *a, size_t from, size_t n)
{
	if (a->width == 8) {
		packed_from_i64(rv, (const int64_t *)a->data + from, n);
	} else {
		packed_from_u32(rv, (const uint32_t *)a->data + from, n);
	}
}

/* Blob b of a result as the PHP value its mode promises (result_fits said it fits). */
static void result_to_zval(const gp_result *r, size_t b, zend_long mode, zval *rv)
{
	size_t v0 = r->blob_values[b], nv = r->blob_values[b + 1] - v0;
	size_t p0 = r->blob_postings[b], np = r->blob_postings[b + 1] - p0;
	if (mode == GP_MODE_VALUES) {
		packed_from_array(rv, &r->values, v0, nv);
		return;
	}
	if (mode == GP_MODE_DOCS) {
		packed_from_array(rv, &r->docs, p0, np);
		return;
	}
	const uint32_t *vstart = r->vstart.data;
	const uint8_t *combined = r->combined.data;
	array_init_size(rv, (uint32_t)np);
	for (size_t p = p0; p < p0 + np; p++) {
		zval positions;
		size_t first = vstart[p] + (combined[p] ? 0 : 1);
		packed_from_array(&positions, &r->pos, first, vstart[p + 1] - first);
		zend_hash_index_update(Z_ARRVAL_P(rv), (zend_ulong)gp_array_i64(&r->docs, p), &positions);
	}
}

static void decode_and_return(const uint8_t *const *blobs, const size_t *lens, size_t n,
                              zend_long format, zend_long mode, HashTable *keys, zval *return_value)
{
	gp_result r;
	gp_error err;
	gp_ctx ctx;
	call_ctx(&ctx, n);
	int rc = gp_decode((int)format, (int)mode, blobs, lens, n, &ctx, &r, &err);
	if (rc != GP_OK) {
		if (keys && rc == GP_EFORMAT) {
			throw_for_blob(&err, keys);
		} else {
			gpupost_throw(&err, NULL);
		}
	} else if (result_fits(&r, mode, keys != NULL, &ctx)) {
		if (!keys) {
			result_to_zval(&r, 0, mode, return_value);
		} else {
			size_t i = 0;
			zend_string *skey;
			zend_ulong ikey;
			array_init_size(return_value, zend_hash_num_elements(keys));
			ZEND_HASH_FOREACH_KEY(keys, ikey, skey) {
				zval item;
				result_to_zval(&r, i++, mode, &item);
				if (skey) {
					zend_hash_update(Z_ARRVAL_P(return_value), skey, &item);
				} else {
					zend_hash_index_update(Z_ARRVAL_P(return_value), ikey, &item);
				}
			} ZEND_HASH_FOREACH_END();
		}
	}
	gp_result_free(&r);
	call_end();
}

PHP_FUNCTION(gpu_decode_postings)
{
	zend_string *blob;
	zend_long format = GP_FORMAT_MOD9, mode = GP_MODE_VALUES;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_STR(blob)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(format)
		Z_PARAM_LONG(mode)
	ZEND_PARSE_PARAMETERS_END();
	if (!check_format_mode(format, mode, 2, 3)) RETURN_THROWS();
	const uint8_t *data = (const uint8_t *)ZSTR_VAL(blob);
	size_t len = ZSTR_LEN(blob);
	decode_and_return(&data, &len, 1, format, mode, NULL, return_value);
}

/* The strings of an array of blobs as C pointers and lengths (emalloc'd, freed by the caller);
 * false with a TypeError when an element is not a string. */
static bool blobs_from_array(HashTable *blobs, const uint8_t ***data, size_t **lens)
{
	zval *item;
	size_t i = 0, n = zend_hash_num_elements(blobs);
	*data = safe_emalloc(n + 1, sizeof(**data), 0);
	*lens = safe_emalloc(n + 1, sizeof(**lens), 0);
	ZEND_HASH_FOREACH_VAL(blobs, item) {
		ZVAL_DEREF(item);
		if (Z_TYPE_P(item) != IS_STRING) {
			zend_argument_type_error(1, "must contain only strings, %s given", zend_zval_type_name(item));
			efree(*data);
			efree(*lens);
			return false;
		}
		(*data)[i] = (const uint8_t *)Z_STRVAL_P(item);
		(*lens)[i++] = Z_STRLEN_P(item);
	} ZEND_HASH_FOREACH_END();
	return true;
}

PHP_FUNCTION(gpu_decode_postings_batch)
{
	HashTable *blobs;
	zend_long format = GP_FORMAT_MOD9, mode = GP_MODE_VALUES;

	size_t n;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ARRAY_HT(blobs)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(format)
		Z_PARAM_LONG(mode)
	ZEND_PARSE_PARAMETERS_END();
	if (!check_format_mode(format, mode, 2, 3)) RETURN_THROWS();
	n = zend_hash_num_elements(blobs);
	if (n == 0) RETURN_EMPTY_ARRAY();
	const uint8_t **data;
	size_t *lens;
	if (!blobs_from_array(blobs, &data, &lens)) RETURN_THROWS();
	decode_and_return(data, lens, n, format, mode, blobs, return_value);
	efree(data);
	efree(lens);
}

/* --- encoding --- */

typedef struct encode_options {
	zend_long delta;  /* S9 */
	double c;         /* QS */
	zend_long word_bits, nbits; /* WAH; nbits -1: the last row + 1 */
} encode_options;

/* Options per API.md: 'delta' for S9, 'c' for QS; anything else is a ValueError. */
static bool parse_options(HashTable *options, zend_long format, encode_options *o)
{
	zend_string *key;
	zend_ulong idx;
	zval *v;
	o->delta = 0;
	o->c = 1.0;
	o->word_bits = 32;
	o->nbits = -1;
	if (!options) return true;
	ZEND_HASH_FOREACH_KEY_VAL(options, idx, key, v) {
		ZVAL_DEREF(v);
		if (key && format == GP_FORMAT_S9 && zend_string_equals_literal(key, "delta")) {
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

/* Copies the ints of a PHP list into a C array; TypeError for anything else. */
static int64_t *ints_from_array(HashTable *ht, uint32_t arg, size_t *n)
{
	zval *item;
	size_t i = 0;
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	if (!fits_budget(&ctx, ((uint64_t)zend_hash_num_elements(ht) + 1) * sizeof(int64_t), 0, "a copy of the array")) {
		return NULL;
	}
	int64_t *out = safe_emalloc(zend_hash_num_elements(ht) + 1, sizeof(int64_t), 0);
	ZEND_HASH_FOREACH_VAL(ht, item) {
		ZVAL_DEREF(item);
		if (Z_TYPE_P(item) != IS_LONG) {
			zend_argument_type_error(arg, "must contain only int, %s given", zend_zval_type_name(item));
			efree(out);
			return NULL;
		}
		out[i++] = Z_LVAL_P(item);
	} ZEND_HASH_FOREACH_END();
	*n = i;
	return out;
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

static zend_string *mod9_encode_postings(HashTable *data)
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
			zend_argument_value_error(1, "must be [doc_index => [positions, ...]] with int doc indexes, \"%s\" found", ZSTR_VAL(key));
			goto fail;
		}
		if (Z_TYPE_P(positions) != IS_ARRAY) {
			zend_argument_type_error(1, "must map each doc index to an array of positions, %s given", zend_zval_type_name(positions));
			goto fail;
		}
		if (!(pos = ints_from_array(Z_ARRVAL_P(positions), 1, &n))) goto fail;
		uint32_t *v = safe_emalloc(n + 1, sizeof(uint32_t), 0);
		nv = gp_mod9_posting_values((int64_t)(zend_long)doc, pos, n, v, &why);
		efree(pos);
		if (nv == 0) {
			efree(v);
			zend_argument_value_error(1, "doc " ZEND_LONG_FMT " cannot be encoded: %s", (zend_long)doc, why);
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

static zend_string *s9_encode(HashTable *data, zend_long delta)
{
	size_t n, at = 0;
	const char *why = NULL;
	int64_t *x = ints_from_array(data, 1, &n);
	if (!x) return NULL;
	zend_string *out = zend_string_alloc(gp_s9_encode_bound(n), 0);
	size_t len = gp_s9_encode(x, n, (uint32_t)delta, (uint8_t *)ZSTR_VAL(out), &why, &at);
	efree(x);
	if (len == 0) {
		zend_string_efree(out);
		zend_argument_value_error(1, "cannot be encoded as GPUPOST_S9 with delta " ZEND_LONG_FMT
		                          " at position %zu: %s", delta, at, why);
		return NULL;
	}
	out = zend_string_truncate(out, len, 0);
	ZSTR_VAL(out)[len] = '\0';
	return out;
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
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	if (!fits_budget(&ctx, (uint64_t)len + 32, 0, "the encoded list")) {
		efree(v);
		return NULL;
	}
	zend_string *out = zend_string_alloc(len, 0);
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
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	if (!fits_budget(&ctx, (uint64_t)len + 32, 0, "the encoded bitmap")) {
		efree(rows);
		return NULL;
	}
	zend_string *out = zend_string_alloc(len, 0);
	gp_wah_encode(rows, n, nbits, (uint32_t)o->word_bits, (uint8_t *)ZSTR_VAL(out));
	ZSTR_VAL(out)[len] = '\0';
	efree(rows);
	return out;
}

PHP_FUNCTION(gpu_encode_postings)
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
	if (!parse_options(options, format, &o)) RETURN_THROWS();
	if (format == GP_FORMAT_S9) {
		out = s9_encode(data, o.delta);
	} else if (format == GP_FORMAT_QS) {
		out = qs_encode(data, o.c);
	} else if (format == GP_FORMAT_WAH) {
		out = wah_encode(data, &o);
	} else {
		out = mode == GP_MODE_VALUES ? mod9_encode_values(data) : mod9_encode_postings(data);
	}
	if (!out) RETURN_THROWS();
	RETURN_STR(out);
}

PHP_FUNCTION(gpu_prefix_sum)
{
	HashTable *values;
	bool inclusive = true;
	size_t n, overflow_at = 0;
	gp_error err;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(values)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(inclusive)
	ZEND_PARSE_PARAMETERS_END();
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	n = zend_hash_num_elements(values);
	/* the input's copy, the sums and their PHP list */
	if (!fits_budget(&ctx, gp_add_sat((uint64_t)n * 2 * sizeof(int64_t), gp_php_list_bytes(n)), 0, "the running sums")) {
		RETURN_THROWS();
	}
	int64_t *in = ints_from_array(values, 1, &n);
	if (!in) RETURN_THROWS();
	int64_t *out = safe_emalloc(n + 1, sizeof(int64_t), 0);
	int rc = gp_prefix_sum(in, n, inclusive, &ctx, out, &overflow_at, &err);
	efree(in);
	if (rc == GP_EVALUE) {
		zend_argument_value_error(1, "running sum overflows a 64-bit integer at position %zu", overflow_at);
	} else if (rc != GP_OK) {
		gpupost_throw(&err, NULL);
	} else {
		packed_from_i64(return_value, out, n);
	}
	efree(out);
	call_end();
}

/* --- WAH bitmaps --- */

PHP_FUNCTION(gpu_wah_query)
{
	HashTable *blobs;
	zend_long op = GP_OP_OR;

	size_t n;
	gp_result r;
	gp_error err;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(blobs)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(op)
	ZEND_PARSE_PARAMETERS_END();
	if (op != GP_OP_AND && op != GP_OP_OR) {
		zend_argument_value_error(2, "must be GPUPOST_AND or GPUPOST_OR");
		RETURN_THROWS();
	}
	n = zend_hash_num_elements(blobs);
	if (n == 0) {
		zend_argument_value_error(1, "must hold at least one bitmap");
		RETURN_THROWS();
	}
	const uint8_t **data;
	size_t *lens;
	if (!blobs_from_array(blobs, &data, &lens)) RETURN_THROWS();
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	int rc = gp_wah_query(data, lens, n, (int)op, &ctx, &r, &err);
	if (rc == GP_EFORMAT) {
		throw_for_blob(&err, blobs);
	} else if (rc != GP_OK) {
		gpupost_throw(&err, NULL);
	} else if (result_fits(&r, GP_MODE_VALUES, false, &ctx)) {
		result_to_zval(&r, 0, GP_MODE_VALUES, return_value);
	}
	gp_result_free(&r);
	efree(data);
	efree(lens);
	call_end();
}

PHP_FUNCTION(gpu_wah_decompress)
{
	zend_string *blob;
	uint64_t bytes;
	gp_error err;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(blob)
	ZEND_PARSE_PARAMETERS_END();
	const uint8_t *data = (const uint8_t *)ZSTR_VAL(blob);
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	if (gp_wah_bitmap_bytes(data, ZSTR_LEN(blob), &ctx, &bytes, &err) != GP_OK) {
		gpupost_throw(&err, NULL);
		RETURN_THROWS();
	}
	zend_string *out = zend_string_alloc((size_t)bytes, 0);
	int rc = gp_wah_decompress(data, ZSTR_LEN(blob), &ctx, (uint8_t *)ZSTR_VAL(out), &err);
	call_end();
	if (rc != GP_OK) {
		zend_string_efree(out);
		gpupost_throw(&err, NULL);
		RETURN_THROWS();
	}
	ZSTR_VAL(out)[bytes] = '\0';
	RETURN_NEW_STR(out);
}

/* --- introspection --- */

static void device_info_array(zval *rv, const gp_device_info *d)
{
	array_init(rv);
	add_assoc_string(rv, "name", (char *)d->device);
	add_assoc_string(rv, "vendor", (char *)d->vendor);
	add_assoc_string(rv, "version", (char *)d->version);
	add_assoc_string(rv, "type", (char *)d->type);
	add_assoc_long(rv, "compute_units", (zend_long)d->compute_units);
	add_assoc_long(rv, "global_mem", (zend_long)d->global_mem);
	add_assoc_long(rv, "max_alloc", (zend_long)d->max_alloc);
	add_assoc_long(rv, "max_work_group", (zend_long)d->max_work_group);
	add_assoc_long(rv, "index", (zend_long)d->device_index);
}

PHP_FUNCTION(gpu_info)
{
	zval platform, device, ini, cached;
	gp_backend_info b;
	ZEND_PARSE_PARAMETERS_NONE();
	gp_backend(&b);
	const gp_device_info *d = b.device;
	array_init(return_value);
	add_assoc_string(return_value, "backend", b.usable ? "opencl" : "host");
	add_assoc_string(return_value, "last_backend", (char *)b.last_backend);
	if (d) {
		array_init(&platform);
		add_assoc_string(&platform, "name", (char *)d->platform);
		add_assoc_string(&platform, "version", (char *)d->platform_version);
		add_assoc_long(&platform, "index", (zend_long)d->platform_index);
		device_info_array(&device, d);
		add_assoc_zval(return_value, "platform", &platform);
		add_assoc_zval(return_value, "device", &device);
	} else {
		add_assoc_null(return_value, "platform");
		add_assoc_null(return_value, "device");
	}
	add_assoc_bool(return_value, "kernels_built", b.built);
	/* the launch shapes chosen for this device when the kernels were built */
	if (b.built) {
		zval tuning;
		array_init(&tuning);
		add_assoc_long(&tuning, "work_group", (zend_long)b.shape.work_group);
		add_assoc_long(&tuning, "staged_values_64", (zend_long)b.shape.stage_items_64);
		add_assoc_long(&tuning, "staged_values_32", (zend_long)b.shape.stage_items_32);
		add_assoc_long(&tuning, "qs_words", (zend_long)b.shape.qs_items);
		add_assoc_long(&tuning, "tile_words", (zend_long)b.shape.tile_items);
		add_assoc_long(&tuning, "wah_words", (zend_long)b.shape.wah_items);
		add_assoc_zval(return_value, "tuning", &tuning);
	} else {
		add_assoc_null(return_value, "tuning");
	}
	add_assoc_bool(return_value, "auto_device", b.auto_device);
	if (b.usable || !b.reason[0]) {
		add_assoc_null(return_value, "reason");
	} else {
		add_assoc_string(return_value, "reason", (char *)b.reason);
	}
	/* device calls that failed and were served by the host path, and the last failure */
	add_assoc_long(return_value, "device_failures", (zend_long)b.device_failures);
	if (b.usable && b.device_failures > 0 && b.reason[0]) {
		add_assoc_string(return_value, "last_device_error", (char *)b.reason);
	} else {
		add_assoc_null(return_value, "last_device_error");
	}
	array_init(&ini);
	add_assoc_string(&ini, "gpupost.device", GPUPOST_G(device) ? GPUPOST_G(device) : "auto");
	add_assoc_long(&ini, "gpupost.min_device_values", GPUPOST_G(min_device_values));
	add_assoc_long(&ini, "gpupost.max_result_bytes", GPUPOST_G(max_result_bytes));
	add_assoc_long(&ini, "gpupost.max_cached_bytes", GPUPOST_G(max_cached_bytes));
	add_assoc_zval(return_value, "ini", &ini);
	/* what this process keeps between calls (bounded by gpupost.max_cached_bytes) */
	array_init(&cached);
	add_assoc_long(&cached, "host_scratch", (zend_long)b.cached.host_scratch);
	add_assoc_long(&cached, "pinned", (zend_long)b.cached.pinned);
	add_assoc_long(&cached, "device", (zend_long)b.cached.device);
	add_assoc_zval(return_value, "cached", &cached);
	add_assoc_bool(return_value, "test_hooks", b.test_hooks);
	add_assoc_long(return_value, "pid", (zend_long)getpid());
}

/* --- module --- */

static PHP_GINIT_FUNCTION(gpupost)
{
#if defined(COMPILE_DL_GPUPOST) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(gpupost_globals, 0, sizeof(*gpupost_globals));
}

PHP_MINIT_FUNCTION(gpupost)
{
	REGISTER_INI_ENTRIES();
	register_gpupost_symbols(module_number);
	gpupost_exception_ce = register_class_GpuPost_Exception(spl_ce_RuntimeException);
	return SUCCESS; /* no OpenCL work here: the device opens on first use, after any fork */
}

PHP_MSHUTDOWN_FUNCTION(gpupost)
{
	gp_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

PHP_MINFO_FUNCTION(gpupost)
{
	char buf[160];
	gp_backend_info b;
	gp_backend(&b);
	const gp_device_info *d = b.device;
	php_info_print_table_start();
	php_info_print_table_header(2, "gpupost support", "enabled");
	php_info_print_table_row(2, "Version", PHP_GPUPOST_VERSION);
	php_info_print_table_row(2, "Formats", "MOD9, S9, QS, WAH");
	php_info_print_table_row(2, "Backend", b.usable ? "opencl" : "host");
	if (d) {
		php_info_print_table_row(2, "OpenCL platform", d->platform);
		php_info_print_table_row(2, "OpenCL device", d->device);
		php_info_print_table_row(2, "Device type", d->type);
		php_info_print_table_row(2, "Device version", d->version);
		snprintf(buf, sizeof(buf), "%u", d->compute_units);
		php_info_print_table_row(2, "Compute units", buf);
		snprintf(buf, sizeof(buf), "%llu MiB", d->global_mem >> 20);
		php_info_print_table_row(2, "Global memory", buf);
	}
	php_info_print_table_row(2, "Kernels built", b.built ? "yes" : "no");
	if (b.built) {
		snprintf(buf, sizeof(buf), "work-group %zu, staged values %zu (64-bit) and %zu (32-bit), "
		         "QS words %zu, MOD9/S9 words %zu, WAH output words %zu", b.shape.work_group,
		         b.shape.stage_items_64, b.shape.stage_items_32, b.shape.qs_items, b.shape.tile_items,
		         b.shape.wah_items);
		php_info_print_table_row(2, "Launch shapes", buf);
	}
	if (d) {
		php_info_print_table_row(2, "Automatic dispatch", strcmp(d->type, "cpu") == 0
			? "host path (a CPU device is used only with gpupost.min_device_values=0)"
			: "device above gpupost.min_device_values");
	}
	if (!b.usable && b.reason[0]) {
		php_info_print_table_row(2, "Why host", b.reason);
	}
	snprintf(buf, sizeof(buf), "host scratch %llu bytes, pinned staging %llu bytes, device buffers %llu bytes",
	         (unsigned long long)b.cached.host_scratch, (unsigned long long)b.cached.pinned,
	         (unsigned long long)b.cached.device);
	php_info_print_table_row(2, "Kept between calls", buf);
	if (b.test_hooks) {
		php_info_print_table_row(2, "Test hooks", "compiled in (GPUPOST_FAULT, GPUPOST_FORCE_STAGING): a test build");
	}
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

zend_module_entry gpupost_module_entry = {
	STANDARD_MODULE_HEADER,
	"gpupost",
	ext_functions,
	PHP_MINIT(gpupost),
	PHP_MSHUTDOWN(gpupost),
	NULL,
	NULL,
	PHP_MINFO(gpupost),
	PHP_GPUPOST_VERSION,
	PHP_MODULE_GLOBALS(gpupost),
	PHP_GINIT(gpupost),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_GPUPOST
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(gpupost)
#endif
