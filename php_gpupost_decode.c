/* The glue of the decoding functions: a call's context in, dispatch, the result's exact PHP size
 * checked, the arrays built straight from the C result. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "zend_exceptions.h"

/* --- C results to PHP arrays (packed fills: the array is the cost, so build it once) --- */

/* What blob b of r costs as the PHP value of its mode, exactly as it will be built. */
static uint64_t blob_php_bytes(const gp_result *r, size_t b, zend_long mode, size_t *longest)
{
	size_t nv = r->blob_values[b + 1] - r->blob_values[b];
	size_t p0 = r->blob_postings[b], np = r->blob_postings[b + 1] - p0;
	size_t n = mode == GP_MODE_VALUES ? nv : np;
	if (n > *longest) *longest = n;
	if (mode != GP_MODE_POSTINGS) return gp_php_list_bytes(n);
	uint64_t bytes = gp_php_map_bytes(np), memo[32] = {0};   /* most postings hold few positions */
	const uint32_t *vstart = r->vstart.data;
	const uint8_t *combined = r->combined.data;
	for (size_t p = p0; p < p0 + np; p++) {
		size_t first = vstart[p] + (combined[p] ? 0 : 1), k = vstart[p + 1] - first;
		uint64_t list = k < 32 ? memo[k] : 0;
		if (!list) {
			list = gp_php_list_bytes(k);
			if (k < 32) memo[k] = list;
		}
		bytes = gp_add_sat(bytes, list);
	}
	return bytes;
}

/* The C arrays a result holds while its PHP arrays are built (every part of a split one). */
static uint64_t result_c_bytes(const gp_result *r)
{
	uint64_t bytes = 0;
	for (; r; r = r->next) {
		bytes += (uint64_t)r->n_values * (r->values.width + r->pos.width);
		bytes += (uint64_t)r->n_postings * (r->docs.width + r->vstart.width + r->combined.width);
		bytes += (uint64_t)(r->n_blobs + 1) * 16;
	}
	return bytes;
}

/* Blobs over every part of a result. */
static size_t result_blobs(const gp_result *r)
{
	size_t n = 0;
	for (; r; r = r->next) n += r->n_blobs;
	return n;
}

/* The exact check before any PHP array of a result is built: the arrays against what
 * memory_limit leaves now, and they and the C buffers together against
 * gpupost.max_result_bytes. `batch`: under one array keyed as the blobs were. */
static bool result_fits_sized(const gp_result *r, zend_long mode, bool batch, const gp_ctx *ctx, uint64_t *php_bytes)
{
	size_t longest = 0;
	uint64_t php = batch ? gp_php_map_bytes(result_blobs(r)) : 0;
	for (const gp_result *part = r; part; part = part->next) {
		for (size_t b = 0; b < part->n_blobs; b++) php = gp_add_sat(php, blob_php_bytes(part, b, mode, &longest));
	}
	*php_bytes = php;
	if (longest >= HT_MAX_SIZE) {
		zend_throw_exception_ex(gpupost_exception_ce, 0,
		                        "decoded list of %zu entries exceeds PHP's array size limit", longest);
		return false;
	}
	gp_ctx now = *ctx;
	now.budget.memory_left = memory_left();   /* the C buffers were taken outside PHP's heap */
	return fits_budget(&now, php, result_c_bytes(r), "the decoded result's arrays");
}

static bool result_fits(const gp_result *r, zend_long mode, bool batch, const gp_ctx *ctx)
{
	uint64_t php;
	return result_fits_sized(r, mode, batch, ctx, &php);
}

/* A packed PHP list from a C array of any integer type. */
#define GP_DEFINE_PACKED_FROM(name, type)                                   \
	void name(zval *rv, const type *v, size_t n)                            \
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

/* Arrays whose layout is decided before they are filled, so that PHP never grows or converts one
 * midway: a packed array that meets a key past its table is converted to a hash of twice the
 * table (past what the budget counted, gp_php_map_bytes). */
void array_init_map(zval *rv, uint32_t n)
{
	array_init_size(rv, n);
	zend_hash_real_init_mixed(Z_ARRVAL_P(rv));
}

void array_init_like(zval *rv, HashTable *keys)
{
	array_init_size(rv, zend_hash_num_elements(keys));   /* nothing taken before the first add */
}

void array_add_like(zval *rv, HashTable *keys, zend_string *skey, zend_ulong ikey, zval *item)
{
	HashTable *ht = Z_ARRVAL_P(rv);
	if (HT_FLAGS(ht) & HASH_FLAG_UNINITIALIZED) {   /* the first: laid out as the keys allow */
		if (HT_IS_PACKED(keys) && HT_IS_WITHOUT_HOLES(keys)) zend_hash_real_init_packed(ht);   /* 0 .. n - 1 */
		else zend_hash_real_init_mixed(ht);
	}
	if (skey) zend_hash_update(ht, skey, item);
	else zend_hash_index_update(ht, ikey, item);
}

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
static void result_to_zval(const gp_result *whole, size_t b, zend_long mode, zval *rv)
{
	const gp_result *r = gp_result_part(whole, &b);
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
	/* packed where the docs increase within the table's room (keys past it would make PHP convert
	 * the array midway), else a hash from the start */
	int64_t last = -1;
	int packed = 1;
	const uint64_t room = np <= 8 ? 8 : (uint64_t)1 << (64 - __builtin_clzll((uint64_t)np - 1));
	for (size_t p = p0; p < p0 + np && packed; p++) {
		int64_t doc = gp_array_i64(&r->docs, p);
		packed = doc > last && (uint64_t)doc < room;
		last = doc;
	}
	last = -1;
	if (packed) {
		array_init_size(rv, (uint32_t)np);
		if (np) zend_hash_real_init_packed(Z_ARRVAL_P(rv));
	} else {
		array_init_map(rv, (uint32_t)np);
	}
	for (size_t p = p0; p < p0 + np; p++) {
		zval positions;
		size_t first = vstart[p] + (combined[p] ? 0 : 1);
		packed_from_array(&positions, &r->pos, first, vstart[p + 1] - first);
		int64_t doc = gp_array_i64(&r->docs, p);
		/* docs increase in a well-formed list: added without looking for the key first */
		if (doc > last) {
			zend_hash_index_add_new(Z_ARRVAL_P(rv), (zend_ulong)doc, &positions);
			last = doc;
		} else {
			zend_hash_index_update(Z_ARRVAL_P(rv), (zend_ulong)doc, &positions);
		}
	}
}

/* A batch the host decodes goes in runs of blobs of about this many bytes: each run decoded and
 * its arrays built before the next, so that its values are still in cache and no C buffer holds
 * the whole batch, while short blobs still share a decode call. */
#define GP_HOST_RUN_BYTES (64 * 1024)

/* A batch the host decodes, run by run (a batch is never slower than the single calls it
 * replaces). The arrays are checked as they grow: each run's against what memory_limit leaves,
 * all of them together against gpupost.max_result_bytes. */
static void decode_in_runs(const uint8_t *const *blobs, const size_t *lens, size_t n, zend_long format,
                           zend_long mode, HashTable *keys, const gp_ctx *ctx, zval *return_value)
{
	uint64_t built = gp_php_map_bytes(n);
	size_t i = 0, run = 0, run_end = 0;
	zend_string *skey;
	zend_ulong ikey;
	gp_result r;
	memset(&r, 0, sizeof(r));
	array_init_like(return_value, keys);
	ZEND_HASH_FOREACH_KEY(keys, ikey, skey) {
		if (i == run_end) {   /* the next run: its blobs decoded, its arrays checked */
			gp_error err;
			size_t bytes = 0;
			run = i;
			while (run_end < n && (run_end == i || bytes + lens[run_end] <= GP_HOST_RUN_BYTES)) bytes += lens[run_end++];
			gp_ctx part = *ctx;
			part.budget.lists = run_end - run;
			part.budget.max_result = ctx->budget.max_result > built ? ctx->budget.max_result - built : 0;
			gp_result_free(&r);
			int rc = gp_decode((int)format, (int)mode, &blobs[run], &lens[run], run_end - run, &part, &r, &err);
			if (rc != GP_OK) {
				err.blob += run;
				if (rc == GP_EFORMAT) throw_for_blob(&err, keys);
				else gpupost_throw(&err, NULL);
			} else {
				uint64_t php;
				if (result_fits_sized(&r, mode, false, &part, &php)) built = gp_add_sat(built, php);
			}
			if (EG(exception)) {
				gp_result_free(&r);
				zval_ptr_dtor(return_value);
				ZVAL_UNDEF(return_value);
				return;
			}
		}
		zval item;
		result_to_zval(&r, i - run, mode, &item);
		array_add_like(return_value, keys, skey, ikey, &item);
		i++;
	} ZEND_HASH_FOREACH_END();
	gp_result_free(&r);
}

static void decode_and_return(const uint8_t *const *blobs, const size_t *lens, size_t n,
                              zend_long format, zend_long mode, HashTable *keys, zval *return_value)
{
	gp_result r;
	gp_error err;
	gp_ctx ctx;
	call_ctx(&ctx, n);
	GP_TRACE("call context");
	int plan = keys && n > 1 ? gp_decode_host_plan((int)format, (int)mode, blobs, lens, n, &ctx, &err) : 1;
	if (plan != 1) {
		if (plan != GP_OK) gpupost_throw(&err, NULL);
		else decode_in_runs(blobs, lens, n, format, mode, keys, &ctx, return_value);
		call_end();
		return;
	}
	int rc = gp_decode((int)format, (int)mode, blobs, lens, n, &ctx, &r, &err);
	GP_TRACE("decoded");
	if (rc != GP_OK) {
		if (keys && rc == GP_EFORMAT) {
			throw_for_blob(&err, keys);
		} else {
			gpupost_throw(&err, NULL);
		}
	} else if (result_fits(&r, mode, keys != NULL, &ctx)) {
		GP_TRACE("result sized");
		if (!keys) {
			result_to_zval(&r, 0, mode, return_value);
		} else {
			size_t i = 0;
			zend_string *skey;
			zend_ulong ikey;
			array_init_like(return_value, keys);
			ZEND_HASH_FOREACH_KEY(keys, ikey, skey) {
				zval item;
				result_to_zval(&r, i++, mode, &item);
				array_add_like(return_value, keys, skey, ikey, &item);
			} ZEND_HASH_FOREACH_END();
		}
	}
	GP_TRACE("PHP arrays built");
	gp_result_free(&r);
	GP_TRACE("result freed");
	call_end();
	GP_TRACE("cache trimmed");
}

GP_FUNCTION(gpu_decode_postings)
{
	zend_string *blob;
	zend_long format = GP_FORMAT_MOD9, mode = GP_MODE_VALUES;
	GP_TRACE_START();
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_STR(blob)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(format)
		Z_PARAM_LONG(mode)
	ZEND_PARSE_PARAMETERS_END();
	if (!check_format_mode(format, mode, 2, 3)) RETURN_THROWS();
	GP_TRACE("arguments parsed");
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

GP_FUNCTION(gpu_decode_postings_batch)
{
	HashTable *blobs;
	zend_long format = GP_FORMAT_MOD9, mode = GP_MODE_VALUES;

	size_t n;
	GP_TRACE_START();
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


GP_FUNCTION(gpu_prefix_sum)
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

GP_FUNCTION(gpu_wah_query)
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

GP_FUNCTION(gpu_wah_decompress)
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

