/* GpuPost\Index: the PHP glue of index/ (argument parsing, terms to ids, answers to arrays,
 * files through PHP's streams) and the process's persistent indexes. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "ext/standard/info.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "net/gp_client.h"
#include "net/gp_wire_trees.h"

static zend_class_entry *index_ce;
static zend_object_handlers index_handlers;

typedef struct index_obj {
	gp_index *ix;
	gp_placement place;
	const char *last_backend;
	zend_string *file;      /* the file it was opened from (NULL when built) */
	bool persistent;
	bool reused;            /* open() found it resident */
	/* gpupostd (gpupost.server): the 'server' option, where device-bound queries go (the
	 * placement asked; the worker's own copy then stays on the host), the handle of its copy
	 * there and the connection the handle belongs to */
	int server;             /* SERVER_NONE, SERVER_AUTO, SERVER_REQUIRED */
	gp_placement route;
	uint32_t server_handle;
	uint64_t server_epoch;
	bool server_refused;    /* the server may not open its file: asked no more */
	uint64_t file_dev, file_ino, file_size;   /* the file this worker's copy was read from: the */
	int64_t file_mtime_ns;                    /* server's must be the same file */
	const char *answered_by;/* the last query's: "worker" or "server" (NULL before one) */
	bool yioop_bundle;      /* opened by openYioopBundle: `file` is the bundle's directory */
	zend_object std;
} index_obj;

enum { SERVER_NONE, SERVER_AUTO, SERVER_REQUIRED };

static inline index_obj *index_from(zend_object *o)
{
	return (index_obj *)((char *)o - XtOffsetOf(index_obj, std));
}
#define THIS_INDEX() index_from(Z_OBJ_P(ZEND_THIS))

static zend_object *index_create(zend_class_entry *ce)
{
	index_obj *o = zend_object_alloc(sizeof(index_obj), ce);
	zend_object_std_init(&o->std, ce);
	object_properties_init(&o->std, ce);
	o->std.handlers = &index_handlers;
	o->last_backend = "none";
	return &o->std;
}

static void index_free(index_obj *o)
{
	gp_index_unref(o->ix);
	o->ix = NULL;
}

static void index_free_obj(zend_object *obj)
{
	index_obj *o = index_from(obj);
	GP_LOCKED(index_free(o));   /* the index (and its device copy) may be another thread's too */
	if (o->file) zend_string_release(o->file);
	zend_object_std_dtor(obj);
}

/* The index of a method's $this: an Error when the constructor did not finish. */
static gp_index *index_of(index_obj *o)
{
	if (!o->ix) zend_throw_error(NULL, "GpuPost\\Index is not initialized");
	return o->ix;
}

/* A GpuPost\Exception for err where err->blob is the id of the term whose list broke. */
static void throw_for_term(const gp_error *err, const char *term, size_t term_len)
{
	if (err->code == GP_EFORMAT) {
		char name[1024];
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: term '%s', byte %zu: %s", err->format,
		                        gp_printable(term, term_len, 200, name, sizeof(name)), err->offset, err->rule);
	} else {
		gpupost_throw(err, NULL);
	}
}

/* --- options --- */

typedef struct index_options {
	gp_placement place;
	bool persistent;
	bool verify;            /* open(): every list checked now, not at its first use */
	int lists;              /* 'device_lists': GP_IX_LISTS_* */
	HashTable *doc_lengths; /* 'doc_lengths' => [doc => tokens] */
	HashTable *attributes;  /* 'attributes' => [name => [doc => number]] */
	int server;             /* open(): 'server' => 'auto' | 'required' | false */
	double k1, b;
	zend_long op, limit;
	bool op_given, tree;    /* 'tree' => true: arrays are query trees */
	HashTable *weights;     /* 'weights' => [column => weight]: bm25() over trees */
	zend_long offset;       /* 'offset' => n: a ranked page from the (n + 1)-th best */
	HashTable *filter;      /* 'filter' => [attribute => [lo, hi] | ['in' => [values]]] */
	zend_string *prior;     /* 'prior' => attribute, added 'prior_weight' times to scores */
	double prior_weight;
	zval *order;            /* 'order' => attribute | [attribute => 'asc' | 'desc'] */
	bool total;             /* 'total' => true: [ 'total' => matches, 'results' => page ] */
} index_options;

/* The best a ranked query asks the engine for: its page and the ones before it. */
static uint32_t ranked_depth(const index_options *io)
{
	uint64_t k = (uint64_t)io->limit + (uint64_t)io->offset;
	return io->limit <= 0 ? 0 : k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

/* 'device' => gpupost.device's values: host keeps the index on the host; auto (or the option
 * absent) follows gpupost.device and min_device_values; gpu, cpu or P:D send every batch to the
 * device (the process's: it keeps the one gpupost.device opened). */
static bool parse_device_option(zval *v, gp_placement *place, uint32_t arg)
{
	if (Z_TYPE_P(v) != IS_STRING || !gp_device_spec_valid(Z_STRVAL_P(v))) {
		zend_argument_value_error(arg, "option 'device' must be auto, gpu, cpu, host or P:D");
		return false;
	}
	*place = strcmp(Z_STRVAL_P(v), "host") == 0 ? GP_PLACE_HOST
	       : strcmp(Z_STRVAL_P(v), "auto") == 0 ? GP_PLACE_AUTO : GP_PLACE_DEVICE;
	return true;
}

/* Options of the constructor and open(): 'device', 'device_lists', and for open() 'persistent'. */
static bool parse_build_options(HashTable *opts, bool open, index_options *o, uint32_t arg)
{
	zend_string *key;
	zend_ulong ikey;
	zval *v;
	o->place = GP_PLACE_AUTO;
	o->persistent = false;
	o->verify = false;
	o->lists = GP_IX_LISTS_AUTO;
	o->doc_lengths = NULL;
	o->attributes = NULL;
	o->server = SERVER_AUTO;
	o->k1 = 1.2;
	o->b = 0.75;
	bool k1_or_b = false;
	if (!opts) return true;
	ZEND_HASH_FOREACH_KEY_VAL(opts, ikey, key, v) {
		ZVAL_DEREF(v);
		if (key && zend_string_equals_literal(key, "device")) {
			if (!parse_device_option(v, &o->place, arg)) return false;
		} else if (key && zend_string_equals_literal(key, "device_lists")) {
			static const char *const names[] = {"auto", "decoded", "compressed"};
			o->lists = -1;
			for (int i = 0; i < 3 && Z_TYPE_P(v) == IS_STRING; i++) {
				if (zend_string_equals_cstr(Z_STR_P(v), names[i], strlen(names[i]))) o->lists = i;
			}
			if (o->lists < 0) {
				zend_argument_value_error(arg, "option 'device_lists' must be 'auto', 'decoded' or 'compressed'");
				return false;
			}
		} else if (key && open && (zend_string_equals_literal(key, "persistent") || zend_string_equals_literal(key, "verify"))) {
			if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
				zend_argument_type_error(arg, "option '%s' must be of type bool, %s given", ZSTR_VAL(key), zend_zval_type_name(v));
				return false;
			}
			*(ZSTR_VAL(key)[0] == 'p' ? &o->persistent : &o->verify) = Z_TYPE_P(v) == IS_TRUE;
		} else if (key && open && zend_string_equals_literal(key, "server")) {
			if (Z_TYPE_P(v) == IS_FALSE) {
				o->server = SERVER_NONE;
			} else if (Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), "auto")) {
				o->server = SERVER_AUTO;
			} else if (Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), "required")) {
				o->server = SERVER_REQUIRED;
			} else {
				zend_argument_value_error(arg, "option 'server' must be 'auto', 'required' or false");
				return false;
			}
		} else if (key && !open && (zend_string_equals_literal(key, "doc_lengths") || zend_string_equals_literal(key, "attributes"))) {
			if (Z_TYPE_P(v) != IS_ARRAY) {
				zend_argument_type_error(arg, "option '%s' must be of type array, %s given", ZSTR_VAL(key), zend_zval_type_name(v));
				return false;
			}
			*(ZSTR_VAL(key)[0] == 'd' ? &o->doc_lengths : &o->attributes) = Z_ARRVAL_P(v);
		} else if (key && !open && (zend_string_equals_literal(key, "k1") || zend_string_equals_literal(key, "b"))) {
			bool is_k1 = ZSTR_VAL(key)[0] == 'k';
			double x = Z_TYPE_P(v) == IS_DOUBLE ? Z_DVAL_P(v) : Z_TYPE_P(v) == IS_LONG ? (double)Z_LVAL_P(v) : NAN;
			if (Z_TYPE_P(v) != IS_DOUBLE && Z_TYPE_P(v) != IS_LONG) {
				zend_argument_type_error(arg, "option '%s' must be of type float, %s given", ZSTR_VAL(key), zend_zval_type_name(v));
				return false;
			}
			if (!(x >= 0.0) || !zend_finite(x) || !gp_bm25_params_valid(is_k1 ? x : 0.0, is_k1 ? 0.0 : x)) {
				zend_argument_value_error(arg, "option '%s' must be %s", ZSTR_VAL(key), is_k1 ? "a number from 0 to 1e6" : "between 0 and 1");
				return false;
			}
			*(is_k1 ? &o->k1 : &o->b) = x;
			k1_or_b = true;
		} else {
			unknown_option(arg, key, ikey);
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	if (k1_or_b && !o->doc_lengths) {
		zend_argument_value_error(arg, "options 'k1' and 'b' need 'doc_lengths' (they shape BM25's ranking)");
		return false;
	}
	return true;
}

/* Options of the queries: 'op', 'limit' and 'tree'. */
static bool parse_query_options(HashTable *opts, const gp_index *ix, index_options *o, uint32_t arg)
{
	zend_string *key;
	zend_ulong ikey;
	zval *v;
	o->op = GP_OP_AND;
	o->limit = 0;
	o->op_given = o->tree = o->total = false;
	o->weights = NULL;
	o->offset = 0;
	o->filter = NULL;
	o->prior = NULL;
	o->prior_weight = 1.0;
	o->order = NULL;
	if (opts) {
		ZEND_HASH_FOREACH_KEY_VAL(opts, ikey, key, v) {
			ZVAL_DEREF(v);
			bool *flag = !key ? NULL : zend_string_equals_literal(key, "total") ? &o->total : zend_string_equals_literal(key, "tree") ? &o->tree : NULL;
			if (flag) {
				if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
					zend_argument_type_error(arg, "option '%s' must be of type bool, %s given", ZSTR_VAL(key), zend_zval_type_name(v));
					return false;
				}
				*flag = Z_TYPE_P(v) == IS_TRUE;
				continue;
			}
			if (key && zend_string_equals_literal(key, "offset")) {
				if (Z_TYPE_P(v) != IS_LONG || Z_LVAL_P(v) < 0) {
					zend_argument_value_error(arg, "option 'offset' must be an int of 0 or more");
					return false;
				}
				o->offset = Z_LVAL_P(v);
				continue;
			}
			if (key && zend_string_equals_literal(key, "filter")) {
				if (Z_TYPE_P(v) != IS_ARRAY) {
					zend_argument_type_error(arg, "option 'filter' must be of type array, %s given", zend_zval_type_name(v));
					return false;
				}
				o->filter = Z_ARRVAL_P(v);
				continue;
			}
			if (key && zend_string_equals_literal(key, "prior")) {
				if (Z_TYPE_P(v) != IS_STRING) {
					zend_argument_type_error(arg, "option 'prior' must name an attribute, %s given", zend_zval_type_name(v));
					return false;
				}
				o->prior = Z_STR_P(v);
				continue;
			}
			if (key && zend_string_equals_literal(key, "prior_weight")) {
				if ((Z_TYPE_P(v) != IS_LONG && Z_TYPE_P(v) != IS_DOUBLE) || !zend_finite(zval_get_double(v))) {
					zend_argument_value_error(arg, "option 'prior_weight' must be a finite number");
					return false;
				}
				o->prior_weight = zval_get_double(v);
				continue;
			}
			if (key && zend_string_equals_literal(key, "order")) {
				o->order = v;
				continue;
			}
			if (key && zend_string_equals_literal(key, "weights")) {
				if (Z_TYPE_P(v) != IS_ARRAY) {
					zend_argument_type_error(arg, "option 'weights' must be of type array, %s given", zend_zval_type_name(v));
					return false;
				}
				o->weights = Z_ARRVAL_P(v);
				continue;
			}
			bool is_op = key && zend_string_equals_literal(key, "op");
			if (!is_op && !(key && zend_string_equals_literal(key, "limit"))) {
				unknown_option(arg, key, ikey);
				return false;
			}
			if (Z_TYPE_P(v) != IS_LONG) {
				zend_argument_type_error(arg, "option '%s' must be of type int, %s given", ZSTR_VAL(key), zend_zval_type_name(v));
				return false;
			}
			*(is_op ? &o->op : &o->limit) = Z_LVAL_P(v);
			o->op_given |= is_op;
		} ZEND_HASH_FOREACH_END();
	}
	if (o->tree && o->op_given) {
		zend_argument_value_error(arg, "option 'op' applies to a list of terms, not to query trees");
		return false;
	}
	if ((o->prior || o->order) && o->limit <= 0) {
		zend_argument_value_error(arg, "options 'prior' and 'order' rank: give 'limit' too");
		return false;
	}
	if (o->prior && o->order) {
		zend_argument_value_error(arg, "options 'prior' and 'order' rank two ways: give one");
		return false;
	}
	if (o->offset > 0 && o->limit <= 0) {
		zend_argument_value_error(arg, "option 'offset' pages a ranked query: give 'limit' too");
		return false;
	}
	if (o->weights && !ix->n_columns) {
		zend_argument_value_error(arg, "option 'weights' weighs columns: an index of documents (GpuPost\\Index::fromDocuments) has them");
		return false;
	}
	if (o->op != GP_OP_AND && o->op != GP_OP_OR && o->op != GP_OP_PHRASE) {
		zend_argument_value_error(arg, "option 'op' must be GPUPOST_AND, GPUPOST_OR or GPUPOST_PHRASE");
		return false;
	}
	if (o->op == GP_OP_PHRASE && !ix->positional) {
		zend_argument_value_error(arg, "option 'op' GPUPOST_PHRASE needs positions: an index of MOD9 postings or of arrays with positions");
		return false;
	}
	if (o->limit < 0) {
		zend_argument_value_error(arg, "option 'limit' must be 0 (every match) or a positive number of best documents");
		return false;
	}
	if (o->limit > 0 && o->op == GP_OP_PHRASE) {
		zend_argument_value_error(arg, "option 'limit' ranks AND and OR queries, not phrases");
		return false;
	}
	if (o->limit > 0 && !ix->doc_len && !o->order) {
		zend_argument_value_error(arg, "option 'limit' needs doc lengths: build the index with 'doc_lengths' => [doc => tokens]");
		return false;
	}
	if (o->limit > UINT32_MAX) o->limit = UINT32_MAX;   /* more than any index's docs */
	return true;
}

/* --- building --- */

/* A term key as bytes: string keys as they are, int keys in decimal (as PHP prints them). */
static const char *term_bytes(zend_string *key, zend_ulong ikey, char *buf, size_t *len)
{
	if (key) {
		*len = ZSTR_LEN(key);
		return ZSTR_VAL(key);
	}
	*len = (size_t)snprintf(buf, 24, ZEND_LONG_FMT, (zend_long)ikey);
	return buf;
}

static int compare_doc_keys(Bucket *a, Bucket *b)
{
	zend_long x = (zend_long)a->h, y = (zend_long)b->h;
	return x < y ? -1 : x > y;
}

/* [doc => [positions]] with docs in increasing order (a copy sorted by doc when they are not). */
static zend_string *encode_term_postings(HashTable *postings, const char *term, size_t term_len)
{
	zend_ulong doc, last = 0;
	zend_string *key;
	bool sorted = true, first = true;
	char where[260];
	char name[200];   /* 40 bytes of the term, escaped, fit `where` whole */
	snprintf(where, sizeof(where), "term '%s': ", gp_printable(term, term_len, 40, name, sizeof(name)));
	ZEND_HASH_FOREACH_KEY(postings, doc, key) {
		if (!key && !first && (zend_long)doc <= (zend_long)last) sorted = false;
		last = doc;
		first = false;
	} ZEND_HASH_FOREACH_END();
	if (sorted) return mod9_encode_postings(postings, false, 1, where);
	HashTable *copy = zend_array_dup(postings);
	zend_hash_sort(copy, compare_doc_keys, 0);
	zend_string *s = mod9_encode_postings(copy, false, 1, where);
	zend_array_destroy(copy);
	return s;
}

/* Builds o's index from [term => blob] or, for GPUPOST_POSTINGS, [term => [doc => [pos]]]. */
/* The index of lists (postings arrays, blobs); with `postings`, arrays of postings even when there
 * are none (an index of documents: MOD9, positional). */
static bool build_index(index_obj *o, HashTable *lists, zend_long format, bool postings, const gp_ctx *ctx)
{
	size_t n = zend_hash_num_elements(lists), i = 0;
	zend_string *key;
	zend_ulong ikey;
	zval *v;
	bool ok = false, arrays = false;
	const char **terms = safe_emalloc(n + 1, sizeof(char *), 0);
	size_t *term_lens = safe_emalloc(n + 1, sizeof(size_t), 0);
	const uint8_t **blobs = safe_emalloc(n + 1, sizeof(uint8_t *), 0);
	size_t *lens = safe_emalloc(n + 1, sizeof(size_t), 0);
	zend_string **encoded = ecalloc(n + 1, sizeof(zend_string *));
	char (*numbers)[24] = safe_emalloc(n + 1, 24, 0);
	ZEND_HASH_FOREACH_KEY_VAL(lists, ikey, key, v) {
		ZVAL_DEREF(v);
		terms[i] = term_bytes(key, ikey, numbers[i], &term_lens[i]);
		if (i == 0) arrays = Z_TYPE_P(v) == IS_ARRAY;
		if (arrays && format == GP_MODE_POSTINGS && Z_TYPE_P(v) == IS_ARRAY) {
			if (!(encoded[i] = encode_term_postings(Z_ARRVAL_P(v), terms[i], term_lens[i]))) goto done;
			blobs[i] = (const uint8_t *)ZSTR_VAL(encoded[i]);
			lens[i] = ZSTR_LEN(encoded[i]);
		} else if (!arrays && Z_TYPE_P(v) == IS_STRING) {
			blobs[i] = (const uint8_t *)Z_STRVAL_P(v);
			lens[i] = Z_STRLEN_P(v);
		} else {
			char name[1024];
			zend_argument_type_error(1, "must map terms to %s, %s given for term '%s'",
			                         format == GP_MODE_POSTINGS && arrays ? "[doc => [positions]] arrays" : "blobs (strings)",
			                         zend_zval_type_name(v), gp_printable(terms[i], term_lens[i], 200, name, sizeof(name)));
			goto done;
		}
		i++;
	} ZEND_HASH_FOREACH_END();
	/* GPUPOST_S9 and GPUPOST_POSTINGS share a value: arrays mean postings, strings S9 blobs */
	int ix_format = arrays || postings ? GP_IX_MOD9 : (int)format;
	gp_error err;
	if (gp_index_build(ix_format, n, terms, term_lens, blobs, lens, &ctx->budget, &o->ix, &err) != GP_OK) {
		if (err.code == GP_EVALUE) {
			zend_argument_value_error(1, "%s", err.rule);
		} else {
			size_t t = err.blob < n ? err.blob : 0;
			throw_for_term(&err, n ? terms[t] : "", n ? term_lens[t] : 0);
		}
		goto done;
	}
	ok = true;
done:
	for (size_t j = 0; j < n; j++) {
		if (encoded[j]) zend_string_release(encoded[j]);
	}
	efree(encoded);
	efree(numbers);
	efree(terms);
	efree(term_lens);
	efree(blobs);
	efree(lens);
	return ok;
}

/* 'doc_lengths' => [doc => tokens] into the index (BM25's lengths). */
static bool set_lengths(gp_index *ix, HashTable *lengths, double k1, double b, const gp_ctx *ctx)
{
	size_t n = zend_hash_num_elements(lengths), i = 0;
	zend_string *key;
	zend_ulong doc;
	zval *v;
	uint32_t *docs = safe_emalloc(n + 1, 2 * sizeof(uint32_t), 0), *lens = docs + n + 1;
	ZEND_HASH_FOREACH_KEY_VAL(lengths, doc, key, v) {
		ZVAL_DEREF(v);
		if (key || doc >= UINT32_MAX) {
			zend_argument_value_error(3, "option 'doc_lengths' must be keyed by docs (ints 0 to 2^32 - 2)");
			efree(docs);
			return false;
		}
		if (Z_TYPE_P(v) != IS_LONG || Z_LVAL_P(v) < 0 || Z_LVAL_P(v) >= (zend_long)UINT32_MAX) {
			zend_argument_value_error(3, "option 'doc_lengths' must map doc " ZEND_ULONG_FMT " to its tokens (an int 0 to 2^32 - 2)", doc);
			efree(docs);
			return false;
		}
		docs[i] = (uint32_t)doc;
		lens[i++] = (uint32_t)Z_LVAL_P(v);
	} ZEND_HASH_FOREACH_END();
	gp_error err;
	int rc = gp_index_set_lengths(ix, docs, lens, n, k1, b, &ctx->budget, &err);
	efree(docs);
	if (rc == GP_EVALUE) {
		zend_argument_value_error(3, "option 'doc_lengths': %s", err.rule);
	} else if (rc != GP_OK) {
		gpupost_throw(&err, NULL);
	}
	return rc == GP_OK;
}

/* 'attributes' => [name => [doc => number]] into the index: each a value a doc (NaN: none). */
static bool set_attributes(gp_index *ix, HashTable *attrs, const gp_ctx *ctx, uint32_t arg)
{
	uint32_t n = zend_hash_num_elements(attrs), a = 0;
	uint64_t docs = (uint64_t)ix->max_doc + 1;
	zend_string *name;
	zend_ulong ik;
	zval *list, *v;
	if (n > GP_IX_MAX_ATTRIBUTES) {
		zend_argument_value_error(arg, "option 'attributes' names more than %d attributes", GP_IX_MAX_ATTRIBUTES);
		return false;
	}
	ZEND_HASH_FOREACH_KEY_VAL(attrs, ik, name, list) {
		(void)ik;
		ZVAL_DEREF(list);
		if (!name || Z_TYPE_P(list) != IS_ARRAY) {
			zend_argument_value_error(arg, "option 'attributes' must map names to [doc => number] arrays");
			return false;
		}
		zend_ulong doc;
		zend_string *dk;
		ZEND_HASH_FOREACH_KEY(Z_ARRVAL_P(list), doc, dk) {
			if (dk || doc >= UINT32_MAX) {
				zend_argument_value_error(arg, "option 'attributes' must key values by docs (ints 0 to 2^32 - 2)");
				return false;
			}
			if (doc + 1 > docs) docs = doc + 1;
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
	if (!fits_budget(ctx, 0, (uint64_t)n * docs * 8, "the attributes")) return false;
	double *values = safe_emalloc((size_t)n * docs + 1, sizeof(double), 0);
	const char **names = safe_emalloc(n + 1, sizeof(char *), 0);
	size_t *lens = safe_emalloc(n + 1, sizeof(size_t), 0);
	for (uint64_t i = 0; i < (uint64_t)n * docs; i++) values[i] = NAN;
	bool ok = true;
	ZEND_HASH_FOREACH_KEY_VAL(attrs, ik, name, list) {
		names[a] = ZSTR_VAL(name);
		lens[a] = ZSTR_LEN(name);
		ZVAL_DEREF(list);
		zend_ulong doc;
		ZEND_HASH_FOREACH_NUM_KEY_VAL(Z_ARRVAL_P(list), doc, v) {
			ZVAL_DEREF(v);
			if ((Z_TYPE_P(v) != IS_LONG && Z_TYPE_P(v) != IS_DOUBLE) || !zend_finite(zval_get_double(v))) {
				zend_argument_value_error(arg, "option 'attributes' must give finite numbers ('%s' of doc " ZEND_ULONG_FMT ")", ZSTR_VAL(name), doc);
				ok = false;
				break;
			}
			values[(size_t)a * docs + doc] = zval_get_double(v);
		} ZEND_HASH_FOREACH_END();
		if (!ok) break;
		a++;
	} ZEND_HASH_FOREACH_END();
	gp_error err;
	if (ok && gp_index_set_attributes(ix, names, lens, n, (uint32_t)docs, values, 0, &ctx->budget, &err) != GP_OK) {
		if (err.code == GP_EVALUE) zend_argument_value_error(arg, "option 'attributes': %s", err.rule);
		else gpupost_throw(&err, NULL);
		ok = false;
	}
	efree(values);
	efree(names);
	efree(lens);
	return ok;
}

GP_METHOD(GpuPost_Index, __construct)
{
	HashTable *lists, *opts = NULL;
	zend_long format = GP_FORMAT_MOD9;
	index_options io;
	gp_ctx ctx;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ARRAY_HT(lists)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(format)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	index_obj *o = THIS_INDEX();
	if (o->ix) {
		zend_throw_error(NULL, "GpuPost\\Index is already initialized");
		RETURN_THROWS();
	}
	if (format != GP_FORMAT_MOD9 && format != GP_FORMAT_S9 && format != GP_FORMAT_QS) {
		zend_argument_value_error(2, "must be GPUPOST_MOD9, GPUPOST_S9, GPUPOST_QS or GPUPOST_POSTINGS");
		RETURN_THROWS();
	}
	if (!parse_build_options(opts, false, &io, 3)) RETURN_THROWS();
	call_ctx(&ctx, 1);
	if (!build_index(o, lists, format, false, &ctx)) RETURN_THROWS();
	if ((io.doc_lengths && !set_lengths(o->ix, io.doc_lengths, io.k1, io.b, &ctx)) ||
	    (io.attributes && !set_attributes(o->ix, io.attributes, &ctx, 3))) {
		gp_index_unref(o->ix);
		o->ix = NULL;
		RETURN_THROWS();
	}
	o->place = io.place;
	o->ix->device_lists = io.lists;
	gp_index_prepare(o->ix, o->place, &ctx, NULL);
	call_end();
}

/* --- documents in --- */

/* The docs MOD9 postings hold: below 2^27 - 1 (Yioop's decoder reads larger ones as its combined
 * form). */
#define GP_DOC_MOD9_LIMIT ((1u << 27) - 1)

/* A doc's tokens added to lists: [term => [doc => [positions]]], column c's at c << 20 | offset. */
typedef struct doc_tokens {
	HashTable *lists;
	zend_ulong doc;
	uint32_t column, offset;
	bool too_long;
} doc_tokens;

static int add_doc_token(void *ctx, const char *token, size_t len)
{
	doc_tokens *d = ctx;
	if (++d->offset > GP_IX_COLUMN_TOKENS) {
		d->too_long = true;
		return 1;
	}
	zval *list = zend_hash_str_find(d->lists, token, len), fresh;
	if (!list) {
		array_init(&fresh);
		list = zend_hash_str_add_new(d->lists, token, len, &fresh);
	}
	zval *pos = zend_hash_index_find(Z_ARRVAL_P(list), d->doc), fresh_pos;
	if (!pos) {
		array_init(&fresh_pos);
		pos = zend_hash_index_add_new(Z_ARRVAL_P(list), d->doc, &fresh_pos);
	}
	add_next_index_long(pos, (zend_long)((uint64_t)d->column << GP_IX_COLUMN_SHIFT | d->offset));
	return 0;
}

/* The columns: 'columns' => [name, ...], else the first doc's keys (a doc given as a string: one
 * column, 'content'). Their names into names/lens (emalloc'd), false thrown. */
static bool document_columns(HashTable *docs, zval *given, const char ***names, size_t **lens, uint32_t *n)
{
	HashTable *src = NULL;
	zval *first = NULL, *v;
	ZEND_HASH_FOREACH_VAL(docs, v) {
		first = v;
		break;
	} ZEND_HASH_FOREACH_END();
	if (first) ZVAL_DEREF(first);
	if (given) {
		ZVAL_DEREF(given);
		if (Z_TYPE_P(given) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(given)) == 0) {
			zend_argument_value_error(2, "option 'columns' must be a list of column names");
			return false;
		}
		src = Z_ARRVAL_P(given);
	} else if (!first || Z_TYPE_P(first) == IS_STRING) {
		*n = 1;
		*names = emalloc(sizeof(char *));
		*lens = emalloc(sizeof(size_t));
		(*names)[0] = "content";
		(*lens)[0] = 7;
		return true;
	} else if (Z_TYPE_P(first) == IS_ARRAY) {
		src = Z_ARRVAL_P(first);
	} else {
		zend_argument_type_error(1, "must hold docs as [column => text] arrays or texts, %s given", zend_zval_type_name(first));
		return false;
	}
	uint32_t count = zend_hash_num_elements(src), i = 0;
	if (count > GP_IX_MAX_COLUMNS) {
		zend_argument_value_error(given ? 2 : 1, "has more than %d columns", GP_IX_MAX_COLUMNS);
		return false;
	}
	*names = safe_emalloc(count + 1, sizeof(char *), 0);
	*lens = safe_emalloc(count + 1, sizeof(size_t), 0);
	zend_string *key;
	zend_ulong ikey_unused;
	ZEND_HASH_FOREACH_KEY_VAL(src, ikey_unused, key, v) {
		(void)ikey_unused;
		ZVAL_DEREF(v);
		zend_string *name = given ? (Z_TYPE_P(v) == IS_STRING ? Z_STR_P(v) : NULL) : key;
		if (!name) {
			zend_argument_value_error(given ? 2 : 1, given ? "option 'columns' must hold names (strings)" : "must key each doc's texts by column name");
			efree(*names);
			efree(*lens);
			return false;
		}
		(*names)[i] = ZSTR_VAL(name);
		(*lens)[i++] = ZSTR_LEN(name);
	} ZEND_HASH_FOREACH_END();
	*n = count;
	return true;
}

/* GpuPost\Index::fromDocuments([doc => [column => text, ...] | text], $options): each column's
 * text tokenized by unicode61 (gpu_tokenize), the doc lengths its tokens, the columns named. */
GP_METHOD(GpuPost_Index, fromDocuments)
{
	HashTable *docs, *opts = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(docs)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	/* the constructor's options, less 'doc_lengths' (counted here), and 'columns' */
	zval *given = opts ? zend_hash_str_find(opts, "columns", 7) : NULL;
	if (opts && zend_hash_str_exists(opts, "doc_lengths", 11)) {
		zend_argument_value_error(2, "option 'doc_lengths' is counted from the documents");
		RETURN_THROWS();
	}
	int tokenizer = GP_TOKENIZER_UNICODE61;
	zval *tk = opts ? zend_hash_str_find(opts, "tokenizer", 9) : NULL;
	if (tk) {
		ZVAL_DEREF(tk);
		if (Z_TYPE_P(tk) == IS_STRING && zend_string_equals_literal(Z_STR_P(tk), "porter")) tokenizer = GP_TOKENIZER_PORTER;
		else if (!(Z_TYPE_P(tk) == IS_STRING && zend_string_equals_literal(Z_STR_P(tk), "unicode61"))) {
			zend_argument_value_error(2, "option 'tokenizer' must be 'unicode61' or 'porter'");
			RETURN_THROWS();
		}
	}
	HashTable *build_opts = NULL;
	if (opts) {
		build_opts = zend_array_dup(opts);
		zend_hash_str_del(build_opts, "columns", 7);
		zend_hash_str_del(build_opts, "tokenizer", 9);
	}
	index_options io;
	bool ok = parse_build_options(build_opts, false, &io, 2);
	if (build_opts) zend_array_destroy(build_opts);
	if (!ok) RETURN_THROWS();
	const char **names;
	size_t *lens;
	uint32_t n_cols;
	if (!document_columns(docs, given, &names, &lens, &n_cols)) RETURN_THROWS();
	HashTable *lists = zend_new_array(0), *lengths = zend_new_array(zend_hash_num_elements(docs));
	doc_tokens d = {lists, 0, 0, 0, false};
	zend_string *key;
	zend_ulong ikey;
	zval *v;
	ok = true;
	ZEND_HASH_FOREACH_KEY_VAL(docs, ikey, key, v) {
		ZVAL_DEREF(v);
		if (key || (zend_long)ikey < 0 || ikey >= GP_DOC_MOD9_LIMIT) {
			zend_argument_value_error(1, "must key docs by ints from 0 to 2^27 - 2 (the docs MOD9 postings hold)");
			ok = false;
			break;
		}
		if (Z_TYPE_P(v) == IS_ARRAY) {   /* every text under a column the index names */
			zend_string *ck;
			zend_ulong cik;
			ZEND_HASH_FOREACH_KEY(Z_ARRVAL_P(v), cik, ck) {
				uint32_t c = 0;
				while (ck && c < n_cols && !(lens[c] == ZSTR_LEN(ck) && memcmp(names[c], ZSTR_VAL(ck), lens[c]) == 0)) c++;
				if (!ck || c == n_cols) {
					if (ck) zend_argument_value_error(1, "doc " ZEND_ULONG_FMT " has a text under '%s', not one of the columns", ikey, ZSTR_VAL(ck));
					else zend_argument_value_error(1, "doc " ZEND_ULONG_FMT " has a text under " ZEND_ULONG_FMT ", not one of the columns", ikey, cik);
					ok = false;
					break;
				}
			} ZEND_HASH_FOREACH_END();
			if (!ok) break;
		}
		d.doc = ikey;
		uint64_t tokens = 0;
		for (uint32_t c = 0; c < n_cols && ok; c++) {
			zval *text = Z_TYPE_P(v) == IS_STRING ? (c == 0 ? v : NULL) : Z_TYPE_P(v) == IS_ARRAY ? zend_hash_str_find(Z_ARRVAL_P(v), names[c], lens[c]) : NULL;
			if (Z_TYPE_P(v) != IS_STRING && Z_TYPE_P(v) != IS_ARRAY) {
				zend_argument_type_error(1, "must hold docs as [column => text] arrays or texts, %s given for doc " ZEND_ULONG_FMT, zend_zval_type_name(v), ikey);
				ok = false;
				break;
			}
			if (text) ZVAL_DEREF(text);
			if (!text || Z_TYPE_P(text) == IS_NULL) continue;   /* a column the doc lacks: empty */
			if (Z_TYPE_P(text) != IS_STRING) {
				zend_argument_type_error(1, "must hold texts as strings, %s given for doc " ZEND_ULONG_FMT, zend_zval_type_name(text), ikey);
				ok = false;
				break;
			}
			d.column = c;
			d.offset = 0;
			gp_tokenize(tokenizer, Z_STRVAL_P(text), Z_STRLEN_P(text), add_doc_token, &d);
			if (d.too_long) {
				zend_argument_value_error(1, "doc " ZEND_ULONG_FMT "'s column '%s' holds more than %u tokens", ikey, names[c], GP_IX_COLUMN_TOKENS);
				ok = false;
				break;
			}
			tokens += d.offset;
		}
		if (!ok) break;
		if (tokens > UINT32_MAX - 1) tokens = UINT32_MAX - 1;
		zval len;
		ZVAL_LONG(&len, (zend_long)tokens);
		zend_hash_index_add_new(lengths, ikey, &len);
	} ZEND_HASH_FOREACH_END();
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	index_obj *o = NULL;
	if (ok) {
		object_init_ex(return_value, index_ce);
		o = index_from(Z_OBJ_P(return_value));
		ok = build_index(o, lists, GP_MODE_POSTINGS, true, &ctx) && set_lengths(o->ix, lengths, io.k1, io.b, &ctx) &&
		     (!io.attributes || set_attributes(o->ix, io.attributes, &ctx, 2));
	}
	if (ok) {
		gp_error err;
		if (gp_index_set_columns(o->ix, names, lens, n_cols, &err) != GP_OK) {
			zend_argument_value_error(2, "%s", err.rule);
			ok = false;
		}
		o->ix->tokenizer = tokenizer;
	}
	if (ok) {
		o->place = io.place;
		o->ix->device_lists = io.lists;
		gp_index_prepare(o->ix, o->place, &ctx, NULL);
	}
	call_end();
	zend_array_destroy(lists);
	zend_array_destroy(lengths);
	efree(names);
	efree(lens);
	if (!ok) {
		if (o && o->ix) {
			gp_index_unref(o->ix);
			o->ix = NULL;
		}
		RETURN_THROWS();
	}
}

/* --- files --- */

GP_METHOD(GpuPost_Index, save)
{
	zend_string *path;
	HashTable *opts = NULL;
	zend_long version = GP_INDEX_FILE_VERSION;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_PATH_STR(path)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	if (opts) {
		zend_string *key;
		zend_ulong idx;
		zval *v;
		ZEND_HASH_FOREACH_KEY_VAL(opts, idx, key, v) {
			if (!key || !zend_string_equals_literal(key, "version")) {
				unknown_option(2, key, idx);
				RETURN_THROWS();
			}
			ZVAL_DEREF(v);
			if (Z_TYPE_P(v) != IS_LONG || (Z_LVAL_P(v) != 1 && Z_LVAL_P(v) != 2)) {
				zend_argument_value_error(2, "option 'version' must be 1 or 2");
				RETURN_THROWS();
			}
			version = Z_LVAL_P(v);
		} ZEND_HASH_FOREACH_END();
	}
	gp_index *ix = index_of(THIS_INDEX());
	if (!ix) RETURN_THROWS();
	if (!gpupost_index_file_save(ix, (int)version, ZSTR_VAL(path))) RETURN_THROWS();
}

/* The server's copy of the index's file opened on the current connection: GP_OK (the handle
 * kept), or a status (why says it; GP_CLIENT_DOWN when the server cannot be reached). */
static int server_open(index_obj *o, char *why, size_t cap)
{
	uint64_t epoch;
	gp_client *c = gpupost_server_client(&epoch);
	o->server_handle = 0;
	if (!c) {
		snprintf(why, cap, "%s", gpupost_server_why());
		return GP_CLIENT_DOWN;
	}
	if (o->server_refused) {
		snprintf(why, cap, "the server refused to open the file");
		return GP_WIRE_DENIED;
	}
	gp_wire_opened opened;
	gp_error err;
	int rc = gp_client_open(c, ZSTR_VAL(o->file), 0, &opened, &err);
	if (rc == GP_OK && (opened.dev != o->file_dev || opened.ino != o->file_ino || opened.size != o->file_size ||
	                    opened.mtime_ns != o->file_mtime_ns || opened.terms != o->ix->n_terms || opened.docs != o->ix->n_docs)) {
		/* the file was replaced between the worker's open and the server's: the server would
		 * answer from another file than the worker's copy */
		snprintf(why, cap, "the server opened another file than the worker's copy (the file was replaced: open the index again)");
		return GP_EVALUE;
	}
	if (rc == GP_OK) {
		o->server_handle = opened.handle;
		o->server_epoch = epoch;
		return GP_OK;
	}
	if (rc == GP_CLIENT_DOWN) gpupost_server_failed(&err);
	if (rc == GP_WIRE_DENIED) o->server_refused = true;
	snprintf(why, cap, "%s", err.rule);
	return rc;
}

/* How a file becomes an index: gpupost's own index file, or a Yioop IndexShard file. */
typedef int (*index_loader)(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                            gp_error *err);

/* open(), openYioopShard() and openYioopBundle(): the file mapped or read whole (or a persistent
 * copy reused), loaded, and prepared for the device. `what` names the file's kind in errors;
 * load_mapped, when not NULL, loads a mapped file into an index that keeps the mapping (its lists
 * read in place); without `load`, the path is a Yioop bundle's directory. */
static void open_index(INTERNAL_FUNCTION_PARAMETERS, index_loader load, index_loader load_mapped, const char *what)
{
	zend_string *path;
	HashTable *opts = NULL;
	index_options io;
	gp_ctx ctx;
	gp_error err;
	php_stream_statbuf sb;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_PATH_STR(path)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	if (!parse_build_options(opts, true, &io, 2)) RETURN_THROWS();
	/* with gpupostd, device-bound queries go to the server and the worker's own copy stays on
	 * the host: one device copy for every worker */
	int server = gpupost_server_socket() ? io.server : SERVER_NONE;
	if (io.server == SERVER_REQUIRED && !gpupost_server_socket()) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "option 'server' => 'required': gpupost.server names no server");
		RETURN_THROWS();
	}
	if (!load_mapped && server != SERVER_NONE) {
		if (server == SERVER_REQUIRED) {
			zend_argument_value_error(2, "option 'server' => 'required': a %s is answered in the worker (the server opens gpupost's index files)", what);
			RETURN_THROWS();
		}
		server = SERVER_NONE;
	}
	const gp_placement route = io.place;
	if (server != SERVER_NONE) io.place = GP_PLACE_HOST;
	call_ctx(&ctx, 1);
	gp_index *ix = NULL;
	char real[MAXPATHLEN];
	if (io.persistent) {
		if (!(load ? gpupost_index_file_stat(ZSTR_VAL(path), what, real, &sb)
		           : gpupost_yioop_bundle_stat(ZSTR_VAL(path), real, &sb))) {
			RETURN_THROWS();
		}
		ix = gpupost_resident_find(what, real, &sb);   /* a reference taken */
	}
	bool reused = ix != NULL;
	if (!ix && !load) {
		if (!(ix = gpupost_yioop_bundle_open(ZSTR_VAL(path), &ctx, real, &sb))) RETURN_THROWS();
		ix->device_lists = io.lists;
		gp_index_prepare(ix, io.place, &ctx, NULL);
		if (io.persistent && !gpupost_resident_add(what, real, &sb, ix)) {
			gp_index_unref(ix);
			RETURN_THROWS();
		}
	} else if (!ix) {
		size_t len;
		void *pinned;
		bool mapped = false;
		/* sb: the state of the file as read, which a persistent copy is known by; a file whose
		 * loader copies what it needs (a Yioop shard, which Yioop saves in place) is read, not
		 * mapped, so that a save while it loads cannot pull pages from under it */
		uint8_t *image = gpupost_index_file_read(ZSTR_VAL(path), what, io.lists == GP_IX_LISTS_COMPRESSED, io.place,
		                                         &ctx, &len, &pinned, &sb, real, load_mapped ? &mapped : NULL);
		if (!image) RETURN_THROWS();
		bool kept = mapped && load_mapped;   /* the index owns the mapping once loaded */
		int rc = (kept ? load_mapped : load)(image, len, &ctx.budget, &ix, &err);
		if (rc == GP_OK && io.verify && (rc = gp_index_verify(ix, &err)) != GP_OK) {
			gp_index_unref(ix);
			ix = NULL;
		}
		if (rc == GP_OK) {
			/* a version 2 file's lists go to a device decoded: it has them in no format the
			 * device decodes */
			ix->device_lists = ix->v2 ? GP_IX_LISTS_DECODED : io.lists;
			gp_index_prepare(ix, io.place, &ctx, pinned ? image : NULL);
		}
		if (mapped) {
			if (!kept || rc != GP_OK) gp_index_unmap_file(image, len);
		} else {
			gpupost_index_image_free(image, pinned);
		}
		if (rc != GP_OK) {
			if (err.code == GP_EFORMAT) {
				zend_throw_exception_ex(gpupost_exception_ce, 0, "%s %s: byte %zu: %s", what, real, err.offset, err.rule);
			} else {
				gpupost_throw(&err, NULL);
			}
			RETURN_THROWS();
		}
		if (io.persistent && !gpupost_resident_add(what, real, &sb, ix)) {
			gp_index_unref(ix);
			RETURN_THROWS();
		}
	} else if (io.verify && gp_index_verify(ix, &err) != GP_OK) {   /* asked of a copy kept: checked now */
		gp_index_unref(ix);
		if (err.code == GP_EFORMAT) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "%s %s: byte %zu: %s", what, real, err.offset, err.rule);
		} else {
			gpupost_throw(&err, NULL);
		}
		RETURN_THROWS();
	}
	const char *key = real;
	object_init_ex(return_value, index_ce);
	index_obj *o = index_from(Z_OBJ_P(return_value));
	o->ix = ix;
	o->place = io.place;
	o->persistent = io.persistent;
	o->reused = reused;
	o->file = zend_string_init(key, strlen(key), 0);
	o->server = server;
	o->route = route;
	o->file_dev = (uint64_t)sb.sb.st_dev;
	o->file_ino = (uint64_t)sb.sb.st_ino;
	o->file_size = (uint64_t)sb.sb.st_size;
	o->file_mtime_ns = (int64_t)sb.sb.st_mtim.tv_sec * 1000000000 + sb.sb.st_mtim.tv_nsec;
	o->yioop_bundle = !load;
	call_end();
	char why[256];
	int rc = server == SERVER_NONE ? GP_OK : server_open(o, why, sizeof(why));
	if (rc != GP_OK && server == SERVER_REQUIRED) {
		zval_ptr_dtor(return_value);
		zend_throw_exception_ex(gpupost_exception_ce, 0, "gpupostd (%s) cannot open %s: %s", gpupost_server_socket(), key, why);
		RETURN_THROWS();
	}
}

GP_METHOD(GpuPost_Index, open)
{
	open_index(INTERNAL_FUNCTION_PARAM_PASSTHRU, gp_index_load, gp_index_load_mapped, "index file");
}

GP_METHOD(GpuPost_Index, openYioopShard)
{
	open_index(INTERNAL_FUNCTION_PARAM_PASSTHRU, gp_index_yioop_load, NULL, "Yioop shard");
}

GP_METHOD(GpuPost_Index, openYioopBundle)
{
	open_index(INTERNAL_FUNCTION_PARAM_PASSTHRU, NULL, NULL, "Yioop bundle");
}

/* --- queries --- */

/* An error of an index's own data, found at its first use: named with its file. */
static void throw_index_error(const index_obj *o, gp_error *err)
{
	if (err->code == GP_EFORMAT && o->file) {   /* a part of its file checked at its first use */
		zend_throw_exception_ex(gpupost_exception_ce, 0, "index file %s: byte %zu: %s", ZSTR_VAL(o->file), err->offset, err->rule);
	} else {
		gpupost_throw(err, NULL);
	}
}

/* The term ids of one query (a list of strings; ints taken as their decimal strings). */
static bool query_terms(const index_obj *o, HashTable *terms, uint32_t *ids, uint32_t arg)
{
	zval *t;
	size_t i = 0;
	gp_error err;
	ZEND_HASH_FOREACH_VAL(terms, t) {
		char buf[24];
		const char *s;
		size_t n;
		if (!gpupost_term_bytes(t, buf, &s, &n)) {
			ZVAL_DEREF(t);
			zend_argument_type_error(arg, "must hold terms as strings, %s given", zend_zval_type_name(t));
			return false;
		}
		memset(&err, 0, sizeof(err));
		if (gp_index_find(o->ix, s, n, &ids[i++], &err) != GP_OK) {
			throw_index_error(o, &err);
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* Whether a batch goes to gpupostd: the placement asked for a device, or under auto, what it
 * would cost this worker's host path (gp_query_host_work) reaches gpupost.min_device_values. */
static bool server_bound(const index_obj *o, const gp_query_batch *batch, const gp_ctx *ctx)
{
	if (o->server == SERVER_NONE || o->route == GP_PLACE_HOST) return false;
	return o->route == GP_PLACE_DEVICE || gp_query_host_work(o->ix, batch) >= (uint64_t)ctx->min_device_values;
}

/* One request to gpupostd on the index's handle there: a batch of lists of terms, or of trees. */
typedef int (*server_request)(gp_client *c, uint32_t handle, const void *what, gp_answers *ans, int *ranked, gp_error *err);

static int request_lists(gp_client *c, uint32_t handle, const void *what, gp_answers *ans, int *ranked, gp_error *err)
{
	gp_wire_query wq = *(const gp_wire_query *)what;
	int count_only;
	wq.handle = handle;
	return gp_client_query(c, &wq, ans, ranked, &count_only, err);
}

static int request_trees(gp_client *c, uint32_t handle, const void *what, gp_answers *ans, int *ranked, gp_error *err)
{
	const gp_tree_batch *b = what;
	*ranked = b->limit > 0 && !b->count_only;
	return gp_client_trees(c, handle, b, ans, err);
}

/* A request asked of gpupostd: 1 answered (ans set), 0 thrown, -1 for the worker to answer (the
 * server down or busy under 'server' => 'auto'). A handle the server no longer knows (its file
 * replaced, the server restarted) is opened again once. */
static int server_answer(index_obj *o, server_request request, const void *what, const gp_ctx *ctx, gp_answers *ans)
{
	gp_error err;
	char why[256] = "";
	int rc = GP_CLIENT_DOWN, ranked = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		uint64_t epoch;
		gp_client *c = gpupost_server_client(&epoch);
		if (!c) {
			snprintf(why, sizeof(why), "%s", gpupost_server_why());
			rc = GP_CLIENT_DOWN;
			break;
		}
		if ((!o->server_handle || o->server_epoch != epoch) && (rc = server_open(o, why, sizeof(why))) != GP_OK) break;
		rc = request(c, o->server_handle, what, ans, &ranked, &err);
		if (rc != GP_OK) snprintf(why, sizeof(why), "%s", err.rule);
		if (rc == GP_CLIENT_DOWN) gpupost_server_failed(&err);
		if (rc == GP_EVALUE && attempt == 0) {
			o->server_handle = 0;
			continue;
		}
		break;
	}
	if (rc == GP_OK) {
		o->answered_by = "server";
		o->last_backend = "server";
		/* the worker's copies of the answers, as its own search counts them */
		if (gp_answers_admit(ans, ans->n_queries, ranked, &ctx->budget, &err) != GP_OK) {
			gp_answers_free(ans);
			gpupost_throw(&err, NULL);
			return 0;
		}
		return 1;
	}
	/* a damaged list the server found, or a server the index must use: the error is the answer */
	if (rc == GP_EFORMAT || o->server == SERVER_REQUIRED) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "gpupostd (%s): %s", gpupost_server_socket(), why);
		return 0;
	}
	return -1;
}

/* A batch of lists of terms asked of gpupostd, its terms as the user gave them (server_answer). */
static int server_search(index_obj *o, HashTable **queries, const gp_query_batch *batch, const gp_ctx *ctx,
                         gp_answers *ans)
{
	const size_t n = batch->n_queries, total = (size_t)batch->at[n];
	const uint8_t **term = safe_emalloc(total + 1, sizeof(*term), 0);
	uint32_t *len = safe_emalloc(total + 1, sizeof(*len), 0);
	char (*ints)[24] = safe_emalloc(total + 1, 24, 0);
	size_t k = 0;
	for (size_t q = 0; q < n; q++) {
		zval *t;
		ZEND_HASH_FOREACH_VAL(queries[q], t) {
			const char *b = "";
			size_t bn = 0;
			gpupost_term_bytes(t, ints[k], &b, &bn);   /* query_terms refused anything but strings and ints */
			term[k] = (const uint8_t *)b;
			len[k] = (uint32_t)MIN(bn, UINT32_MAX);
			k++;
		} ZEND_HASH_FOREACH_END();
	}
	gp_wire_query wq = {0, batch->op, batch->count_only, batch->limit, (uint32_t)n, (uint64_t *)batch->at, term, len};
	int by_server = server_answer(o, request_lists, &wq, ctx, ans);
	efree(term);
	efree(len);
	efree(ints);
	return by_server;
}

/* Runs queries (one array of terms each) and returns their answers, or NULL (thrown). */
static bool run_queries(index_obj *o, HashTable **queries, size_t n, const index_options *io,
                        int count_only, gp_answers *ans, uint32_t arg)
{
	uint64_t total = 0;
	gp_ctx ctx;
	gp_error err;
	GP_TRACE_START();
	for (size_t q = 0; q < n; q++) total += zend_hash_num_elements(queries[q]);
	call_ctx(&ctx, n ? n : 1);
	/* the terms' ids and offsets are taken from PHP's heap */
	if (!fits_budget(&ctx, gp_zend_alloc_bytes((total + 1) * 4) + gp_zend_alloc_bytes((n + 1) * 8), 0, "the queries' terms")) return false;
	uint32_t *terms = safe_emalloc(total + 1, sizeof(uint32_t), 0);
	uint64_t *at = safe_emalloc(n + 1, sizeof(uint64_t), 0);
	at[0] = 0;
	for (size_t q = 0; q < n; q++) {
		if (!query_terms(o, queries[q], terms + at[q], arg)) {
			efree(terms);
			efree(at);
			return false;
		}
		at[q + 1] = at[q] + zend_hash_num_elements(queries[q]);
	}
	gp_query_batch batch = {(int)io->op, n, terms, at, count_only, ranked_depth(io)};
	uint64_t device_before = o->ix->device_bytes;
	GP_TRACE("terms to ids");
	int by_server = server_bound(o, &batch, &ctx) ? server_search(o, queries, &batch, &ctx, ans) : -1;
	if (by_server >= 0) {
		GP_TRACE("answered by the server");
		efree(terms);
		efree(at);
		call_end();
		return by_server == 1;
	}
	o->answered_by = "worker";
	int rc = gp_index_search(o->ix, &batch, o->place, &ctx, ans, &o->last_backend, &err);
	GP_TRACE("answered");
	if (o->persistent && o->ix->device_bytes != device_before) {
		gpupost_resident_trim();   /* its device copy, made now, counts against the cap too */
	}
	efree(terms);
	efree(at);
	call_end();
	if (rc != GP_OK) {
		throw_index_error(o, &err);
		return false;
	}
	return true;
}

/* 'weights' => [column name or number => weight] as a weight a column (1 where none is given). */
static bool column_weights(const gp_index *ix, HashTable *given, double *w, uint32_t arg)
{
	zend_string *key;
	zend_ulong ikey;
	zval *v;
	for (uint32_t c = 0; c < ix->n_columns; c++) w[c] = 1.0;
	ZEND_HASH_FOREACH_KEY_VAL(given, ikey, key, v) {
		ZVAL_DEREF(v);
		uint32_t c = 0;
		if (key) {
			for (; c < ix->n_columns; c++) {
				size_t nl;
				const char *name = gp_index_column(ix, c, &nl);
				if (nl == ZSTR_LEN(key) && strncasecmp(name, ZSTR_VAL(key), nl) == 0) break;
			}
		} else {
			c = ikey < ix->n_columns ? (uint32_t)ikey : ix->n_columns;
		}
		if (c == ix->n_columns) {
			if (key) zend_argument_value_error(arg, "option 'weights' names a column the index lacks: '%s'", ZSTR_VAL(key));
			else zend_argument_value_error(arg, "option 'weights' numbers a column the index lacks: " ZEND_ULONG_FMT, ikey);
			return false;
		}
		/* at most 1e6 and not below 0: a phrase's frequency (weights times hits) stays finite and
		 * BM25's denominator positive, so every score is a number */
		if ((Z_TYPE_P(v) != IS_LONG && Z_TYPE_P(v) != IS_DOUBLE) || !(zval_get_double(v) >= 0.0 && zval_get_double(v) <= 1e6)) {
			zend_argument_value_error(arg, "option 'weights' must give each column a number from 0 to 1e6");
			return false;
		}
		w[c] = zval_get_double(v);
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* The attribute named (ValueError naming the option when the index has none of that name). */
static bool attribute_named(const gp_index *ix, const char *name, size_t len, int *a, const char *option, uint32_t arg)
{
	*a = gp_index_attribute_find(ix, name, len);
	if (*a >= 0) return true;
	zend_argument_value_error(arg, "option '%s' names an attribute the index lacks: '%s'", option, name);
	return false;
}

/* A number of a filter: an int or float, or null for an open end (-inf or +inf). */
static bool filter_number(zval *v, double open, double *x)
{
	if (!v || Z_TYPE_P(v) == IS_NULL) {
		*x = open;
		return true;
	}
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) != IS_LONG && Z_TYPE_P(v) != IS_DOUBLE) return false;
	*x = zval_get_double(v);
	return *x == *x;
}

/* 'filter', 'prior' and 'order' as the tree batch takes them (filters and their sets emalloc'd
 * into *filters and *sets, freed by the caller); false thrown. */
static bool attribute_options(const gp_index *ix, const index_options *io, gp_tree_batch *b, gp_tree_filter **filters,
                              double **sets, uint32_t arg)
{
	b->prior_attr = b->order_attr = -1;
	b->prior_weight = io->prior_weight;
	if (io->prior && !attribute_named(ix, ZSTR_VAL(io->prior), ZSTR_LEN(io->prior), &b->prior_attr, "prior", arg)) return false;
	if (io->order) {
		zval *o = io->order;
		zend_string *name = Z_TYPE_P(o) == IS_STRING ? Z_STR_P(o) : NULL;
		b->order_desc = 1;
		if (Z_TYPE_P(o) == IS_ARRAY && zend_hash_num_elements(Z_ARRVAL_P(o)) == 1) {
			zend_ulong ik;
			zval *dir;
			ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(o), ik, name, dir) {
				(void)ik;
				ZVAL_DEREF(dir);
				if (Z_TYPE_P(dir) != IS_STRING || (!zend_string_equals_literal(Z_STR_P(dir), "asc") && !zend_string_equals_literal(Z_STR_P(dir), "desc"))) name = NULL;
				else b->order_desc = zend_string_equals_literal(Z_STR_P(dir), "desc");
			} ZEND_HASH_FOREACH_END();
		}
		if (!name) {
			zend_argument_value_error(arg, "option 'order' must be an attribute's name or [name => 'asc' | 'desc']");
			return false;
		}
		if (!attribute_named(ix, ZSTR_VAL(name), ZSTR_LEN(name), &b->order_attr, "order", arg)) return false;
	}
	if (!io->filter) return true;
	uint32_t n = zend_hash_num_elements(io->filter), i = 0, values = 0;
	zend_string *name;
	zend_ulong ik;
	zval *v;
	ZEND_HASH_FOREACH_VAL(io->filter, v) {
		ZVAL_DEREF(v);
		zval *in = Z_TYPE_P(v) == IS_ARRAY ? zend_hash_str_find(Z_ARRVAL_P(v), "in", 2) : NULL;
		if (in) ZVAL_DEREF(in);
		if (in && Z_TYPE_P(in) == IS_ARRAY) values += zend_hash_num_elements(Z_ARRVAL_P(in));
	} ZEND_HASH_FOREACH_END();
	*filters = safe_emalloc(n + 1, sizeof(gp_tree_filter), 0);
	*sets = safe_emalloc(values + 1, sizeof(double), 0);
	values = 0;
	ZEND_HASH_FOREACH_KEY_VAL(io->filter, ik, name, v) {
		(void)ik;
		int a;
		if (!name) {
			zend_argument_value_error(arg, "option 'filter' must be keyed by attribute names");
			return false;
		}
		if (!attribute_named(ix, ZSTR_VAL(name), ZSTR_LEN(name), &a, "filter", arg)) return false;
		ZVAL_DEREF(v);
		gp_tree_filter *f = &(*filters)[i++];
		f->attr = (uint32_t)a;
		f->set = NULL;
		f->n_set = 0;
		zval *in = Z_TYPE_P(v) == IS_ARRAY ? zend_hash_str_find(Z_ARRVAL_P(v), "in", 2) : NULL;
		bool ok = Z_TYPE_P(v) == IS_ARRAY;
		if (ok && in) {
			ZVAL_DEREF(in);
			ok = Z_TYPE_P(in) == IS_ARRAY && zend_hash_num_elements(Z_ARRVAL_P(v)) == 1;
			f->set = *sets + values;
			zval *x;
			if (ok) ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(in), x) {
				ok = ok && x && filter_number(x, 0.0, &(*sets)[values]);
				values++;
				f->n_set++;
			} ZEND_HASH_FOREACH_END();
		} else if (ok) {
			ok = zend_hash_num_elements(Z_ARRVAL_P(v)) == 2 && filter_number(zend_hash_index_find(Z_ARRVAL_P(v), 0), -HUGE_VAL, &f->lo) &&
			     filter_number(zend_hash_index_find(Z_ARRVAL_P(v), 1), HUGE_VAL, &f->hi) && zend_hash_index_exists(Z_ARRVAL_P(v), 0) && zend_hash_index_exists(Z_ARRVAL_P(v), 1);
		}
		if (!ok) {
			zend_argument_value_error(arg, "option 'filter' takes [attribute => [lo, hi]] (numbers, or null for an open end) or [attribute => ['in' => [numbers]]]");
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	b->filters = *filters;
	b->n_filters = i;
	return true;
}

/* The most terms a tree taken as a list may have (gp_qtree_flat). */
#define FLAT_TREE_TERMS 64

/* Trees that are each a plain list of terms under one operator (gp_qtree_flat), asked with no
 * option only trees take, answered as lists of terms: the way they take has the device, the
 * server and the flat walk's MaxScore. 1 answered, 0 thrown, -1 not lists (nothing done). */
static int run_flat_trees(index_obj *o, const gp_qtree **trees, size_t n, const index_options *io, int count_only,
                          gp_answers *ans, uint32_t arg)
{
	if (n == 0 || io->weights || io->total || io->filter || io->prior || io->order) return -1;
	uint32_t items[FLAT_TREE_TERMS];
	size_t k;
	int op = -1, tree_op;
	for (size_t q = 0; q < n; q++) {
		if (!gp_qtree_flat(trees[q], &tree_op, items, FLAT_TREE_TERMS, &k)) return -1;
		if (k > 1 && op >= 0 && tree_op != op) return -1;
		if (k > 1) op = tree_op;
	}
	HashTable **lists = safe_emalloc(n, sizeof(HashTable *), 0);
	for (size_t q = 0; q < n; q++) {
		gp_qtree_flat(trees[q], &tree_op, items, FLAT_TREE_TERMS, &k);
		lists[q] = zend_new_array((uint32_t)k);
		for (size_t i = 0; i < k; i++) {
			const gp_qt_item *it = &trees[q]->items[items[i]];
			zval term;
			ZVAL_STRINGL(&term, trees[q]->text + it->at, it->len);
			zend_hash_next_index_insert_new(lists[q], &term);
		}
	}
	index_options flat = *io;
	flat.op = op == GP_QT_OR ? GP_OP_OR : GP_OP_AND;
	bool ok = run_queries(o, lists, n, &flat, count_only, ans, arg);
	for (size_t q = 0; q < n; q++) zend_array_destroy(lists[q]);
	efree(lists);
	return ok ? 1 : 0;
}

/* Runs queries as trees (MATCH expressions, array trees, lists of terms under 'op') on the host
 * and returns their answers, or false (thrown); trees that are plain lists of terms go as lists
 * (run_flat_trees). keys: the batch's, to name a query in errors (NULL: a single query). */
static bool run_trees(index_obj *o, zval **queries, HashTable *keys, size_t n, const index_options *io, int count_only,
                      gp_answers *ans, uint32_t arg)
{
	gp_ctx ctx;
	gp_error err;
	call_ctx(&ctx, n ? n : 1);
	if (!fits_budget(&ctx, gp_zend_alloc_bytes((uint64_t)(n + 1) * (sizeof(gp_qtree) + sizeof(gp_qtree *))), 0, "the queries' trees")) return false;
	gp_qtree *trees = safe_emalloc(n + 1, sizeof(gp_qtree), 0);
	const gp_qtree **tp = safe_emalloc(n + 1, sizeof(gp_qtree *), 0);
	size_t built = 0;
	bool ok = true;
	zend_string *skey;
	zend_ulong ikey;
	if (keys) {
		ZEND_HASH_FOREACH_KEY(keys, ikey, skey) {
			char name[96];
			if (skey) snprintf(name, sizeof(name), "query [\"%.60s\"]: ", ZSTR_VAL(skey));
			else snprintf(name, sizeof(name), "query [" ZEND_ULONG_FMT "]: ", ikey);
			gp_qtree_init(&trees[built]);
			tp[built] = &trees[built];
			built++;
			if (!(ok = gpupost_query_tree(o->ix, queries[built - 1], io->tree, (int)io->op, name, &trees[built - 1], arg))) break;
		} ZEND_HASH_FOREACH_END();
	} else {
		gp_qtree_init(&trees[0]);
		tp[0] = &trees[0];
		built = 1;
		ok = gpupost_query_tree(o->ix, queries[0], io->tree, (int)io->op, "", &trees[0], arg);
	}
	int rc = GP_OK, flat = ok ? run_flat_trees(o, tp, built, io, count_only, ans, arg) : -1;
	if (flat >= 0) {
		for (size_t i = 0; i < built; i++) gp_qtree_free(&trees[i]);
		efree(trees);
		efree(tp);
		call_end();
		return flat == 1;
	}
	double weights[GP_IX_MAX_COLUMNS];
	if (ok && io->weights) ok = column_weights(o->ix, io->weights, weights, 2);
	gp_tree_batch b = {n, tp, count_only, ranked_depth(io), io->weights ? weights : NULL, io->weights ? o->ix->n_columns : 0, io->total,
	                   NULL, 0, -1, 1.0, -1, 1};
	gp_tree_filter *filters = NULL;
	double *sets = NULL;
	if (ok) ok = attribute_options(o->ix, io, &b, &filters, &sets, 2);
	/* device-bound trees go to gpupostd, as lists do (server_bound's rule, by the trees' work) */
	int by_server = ok && o->server != SERVER_NONE && o->route != GP_PLACE_HOST &&
	                        (o->route == GP_PLACE_DEVICE || gp_tree_host_work(o->ix, tp, built) >= (uint64_t)ctx.min_device_values)
	                    ? server_answer(o, request_trees, &b, &ctx, ans)
	                    : -1;
	if (by_server >= 0) ok = by_server == 1;
	else if (ok) {
		o->answered_by = "worker";
		rc = gp_index_tree_search(o->ix, &b, o->place, &ctx, ans, &o->last_backend, &err);
	}
	if (filters) efree(filters);
	if (sets) efree(sets);
	for (size_t i = 0; i < built; i++) gp_qtree_free(&trees[i]);
	efree(trees);
	efree(tp);
	call_end();
	if (!ok) return false;
	if (rc == GP_EVALUE) {
		zend_argument_value_error(arg, "%s", err.rule);
		return false;
	}
	if (rc != GP_OK) {
		throw_index_error(o, &err);
		return false;
	}
	return true;
}

/* Whether a query goes as a tree: a string (a MATCH expression), an array under 'tree', or any
 * query ranked with column weights, a prior or an order, filtered, or asked for its total (the
 * tree walk counts every match). */
static bool is_tree_query(zval *q, const index_options *io)
{
	ZVAL_DEREF(q);
	return Z_TYPE_P(q) == IS_STRING || (Z_TYPE_P(q) == IS_ARRAY && (io->tree || io->weights || io->total || io->filter || io->prior || io->order));
}

static bool op_with_strings(const index_options *io, uint32_t arg)
{
	if (!io->op_given) return true;
	zend_argument_value_error(arg, "option 'op' applies to lists of terms, not to MATCH expressions");
	return false;
}

/* One query of search() or count(): a list of terms, or a MATCH expression. */
static bool run_one(index_obj *o, HashTable *terms, zend_string *match, const index_options *io, int count_only, gp_answers *ans)
{
	zval query, *qp = &query;
	if (match) ZVAL_STR(&query, match); else ZVAL_ARR(&query, terms);
	if (!is_tree_query(qp, io)) return run_queries(o, &terms, 1, io, count_only, ans, 1);
	return (!match || op_with_strings(io, 2)) && run_trees(o, &qp, NULL, 1, io, count_only, ans, 1);
}

/* Query q's answer: its docs, increasing, or (ranked) [doc => score], best first, from the
 * offset's on; with 'total', ['total' => its matches, 'results' => that]. */
static void answer_array(zval *rv, const gp_answers *a, size_t q, const index_options *io)
{
	size_t from = (size_t)a->at[q], n = (size_t)(a->at[q + 1] - a->at[q]);
	size_t skip = a->scores && (uint64_t)io->offset < n ? (size_t)io->offset : a->scores ? n : 0;
	zval page, *out = io->total ? &page : rv;
	if (!a->scores) {
		packed_from_u32(out, a->docs + from, n);
	} else {
		array_init_map(out, (uint32_t)(n - skip));   /* docs best first: a hash, as gp_answers_admit counts it */
		for (size_t i = from + skip; i < from + n; i++) add_index_double(out, (zend_ulong)a->docs[i], a->scores[i]);
	}
	if (!io->total) return;
	array_init_size(rv, 2);
	add_assoc_long(rv, "total", a->matched ? (zend_long)a->matched[q] : (zend_long)n);
	add_assoc_zval(rv, "results", &page);
}

GP_METHOD(GpuPost_Index, search)
{
	HashTable *terms = NULL, *opts = NULL;
	zend_string *match = NULL;
	index_options io;
	gp_answers ans;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT_OR_STR(terms, match)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	index_obj *o = THIS_INDEX();
	if (!index_of(o) || !parse_query_options(opts, o->ix, &io, 2)) RETURN_THROWS();
	if (!run_one(o, terms, match, &io, 0, &ans)) RETURN_THROWS();
	answer_array(return_value, &ans, 0, &io);
	gp_answers_free(&ans);
}

GP_METHOD(GpuPost_Index, searchBatch)
{
	HashTable *queries, *opts = NULL;
	index_options io;
	gp_answers ans;
	zval *q, list;
	zend_string *key;
	zend_ulong ikey;
	size_t n, i = 0;
	bool trees = false, strings = false;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(queries)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	index_obj *o = THIS_INDEX();
	if (!index_of(o) || !parse_query_options(opts, o->ix, &io, 2)) RETURN_THROWS();
	n = zend_hash_num_elements(queries);
	gp_ctx ctx;
	call_ctx(&ctx, n ? n : 1);
	if (!fits_budget(&ctx, gp_zend_alloc_bytes((uint64_t)(n + 1) * sizeof(zval *)), 0, "the batch's queries")) RETURN_THROWS();
	zval **qz = safe_emalloc(n + 1, sizeof(zval *), 0);
	ZEND_HASH_FOREACH_VAL(queries, q) {
		ZVAL_DEREF(q);
		if (Z_TYPE_P(q) != IS_ARRAY && Z_TYPE_P(q) != IS_STRING) {
			zend_argument_type_error(1, "must hold queries as arrays of terms, query trees or MATCH expressions, %s given", zend_zval_type_name(q));
			efree(qz);
			RETURN_THROWS();
		}
		strings |= Z_TYPE_P(q) == IS_STRING;
		trees |= is_tree_query(q, &io);
		qz[i++] = q;
	} ZEND_HASH_FOREACH_END();
	bool ok;
	if (trees) {
		/* one batch of trees: the lists of terms among them become trees too */
		ok = (!strings || op_with_strings(&io, 2)) && run_trees(o, qz, queries, n, &io, 0, &ans, 1);
	} else {
		HashTable **qs = safe_emalloc(n + 1, sizeof(HashTable *), 0);
		for (i = 0; i < n; i++) qs[i] = Z_ARRVAL_P(qz[i]);
		ok = run_queries(o, qs, n, &io, 0, &ans, 1);
		efree(qs);
	}
	efree(qz);
	if (!ok) RETURN_THROWS();
	array_init_like(return_value, queries);
	i = 0;
	ZEND_HASH_FOREACH_KEY(queries, ikey, key) {
		answer_array(&list, &ans, i, &io);
		array_add_like(return_value, queries, key, ikey, &list);
		i++;
	} ZEND_HASH_FOREACH_END();
	gp_answers_free(&ans);
}

GP_METHOD(GpuPost_Index, count)
{
	HashTable *terms = NULL, *opts = NULL;
	zend_string *match = NULL;
	index_options io;
	gp_answers ans;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT_OR_STR(terms, match)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	index_obj *o = THIS_INDEX();
	if (!index_of(o)) RETURN_THROWS();
	if (!match && (!terms || zend_hash_num_elements(terms) == 0)) RETURN_LONG((zend_long)o->ix->n_terms);
	if (!parse_query_options(opts, o->ix, &io, 2)) RETURN_THROWS();
	/* what search() would return: the matches past the offset, at most the limit */
	zend_long limit = io.limit, offset = io.offset;
	io.limit = 0;
	io.offset = 0;
	io.total = false;
	if (!run_one(o, terms, match, &io, 1, &ans)) RETURN_THROWS();
	uint64_t past = ans.total > (uint64_t)offset ? ans.total - (uint64_t)offset : 0;
	RETVAL_LONG(limit > 0 && (uint64_t)limit < past ? limit : (zend_long)past);
	gp_answers_free(&ans);
}

/* A method's one argument, a list of docs, and its index (NULL: thrown). */
static gp_index *docs_argument(INTERNAL_FUNCTION_PARAMETERS, HashTable **docs, index_obj **o)
{
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(*docs)
	ZEND_PARSE_PARAMETERS_END_EX(return NULL);
	*o = THIS_INDEX();
	return index_of(*o);
}

/* [doc => [attribute => value]]: each doc's attributes that it has (what filters, priors and
 * orders read; a Yioop bundle's doc map). */
GP_METHOD(GpuPost_Index, attributes)
{
	HashTable *docs;
	index_obj *o;
	gp_index *ix = docs_argument(INTERNAL_FUNCTION_PARAM_PASSTHRU, &docs, &o);
	if (!ix) RETURN_THROWS();
	zval *v;
	ZEND_HASH_FOREACH_VAL(docs, v) {
		ZVAL_DEREF(v);
		if (Z_TYPE_P(v) != IS_LONG) {
			zend_argument_type_error(1, "must hold docs as int, %s given", zend_zval_type_name(v));
			RETURN_THROWS();
		}
		if (Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > UINT32_MAX) {
			zend_argument_value_error(1, "doc " ZEND_LONG_FMT " is not a doc (0 to 4294967295)", Z_LVAL_P(v));
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
	array_init_size(return_value, zend_hash_num_elements(docs));
	ZEND_HASH_FOREACH_VAL(docs, v) {
		ZVAL_DEREF(v);
		uint32_t d = (uint32_t)Z_LVAL_P(v);
		zval row;
		array_init(&row);
		for (uint32_t a = 0; a < ix->n_attrs; a++) {
			double x = gp_index_attribute(ix, a, d);
			if (x != x) continue;   /* NaN: the doc has none */
			size_t len;
			const char *name = gp_index_attribute_name(ix, a, &len);
			add_assoc_double_ex(&row, name, len, x);
		}
		zend_hash_index_update(Z_ARRVAL_P(return_value), (zend_ulong)d, &row);
	} ZEND_HASH_FOREACH_END();
}

/* [doc => page]: each doc's summary from its Yioop bundle's web archives (an index opened by
 * openYioopBundle). */
GP_METHOD(GpuPost_Index, yioopSummaries)
{
	HashTable *docs;
	index_obj *o;
	gp_index *ix = docs_argument(INTERNAL_FUNCTION_PARAM_PASSTHRU, &docs, &o);
	if (!ix) RETURN_THROWS();
	if (!o->yioop_bundle) {
		zend_throw_error(NULL, "GpuPost\\Index::yioopSummaries(): the index was not opened by openYioopBundle()");
		RETURN_THROWS();
	}
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	gpupost_yioop_summaries(ix, ZSTR_VAL(o->file), docs, &ctx, return_value);
	call_end();
}

/* [doc => Yioop's item fields]: key, generation, doc index, summary offset, doc length, whether a
 * page, DOC_RANK (an index opened by openYioopBundle). */
GP_METHOD(GpuPost_Index, yioopDocs)
{
	HashTable *docs;
	index_obj *o;
	gp_index *ix = docs_argument(INTERNAL_FUNCTION_PARAM_PASSTHRU, &docs, &o);
	if (!ix) RETURN_THROWS();
	if (!ix->yioop) {
		zend_throw_error(NULL, "GpuPost\\Index::yioopDocs(): the index was not opened by openYioopBundle()");
		RETURN_THROWS();
	}
	gpupost_yioop_docs(ix, docs, return_value);
}

/* [generation => first doc, doc indices, its shard header's counts] (an index opened by
 * openYioopBundle). */
GP_METHOD(GpuPost_Index, yioopGenerations)
{
	ZEND_PARSE_PARAMETERS_NONE();
	gp_index *ix = index_of(THIS_INDEX());
	if (!ix) RETURN_THROWS();
	if (!ix->yioop) {
		zend_throw_error(NULL, "GpuPost\\Index::yioopGenerations(): the index was not opened by openYioopBundle()");
		RETURN_THROWS();
	}
	gpupost_yioop_generations(ix, return_value);
}

/* Yioop's ranked, grouped pages for one of PhraseModel's word structs (an index opened by
 * openYioopBundle). */
GP_METHOD(GpuPost_Index, yioopSearch)
{
	HashTable *ws, *options = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(ws)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();
	gp_index *ix = index_of(THIS_INDEX());
	if (!ix) RETURN_THROWS();
	if (!ix->yioop) {
		zend_throw_error(NULL, "GpuPost\\Index::yioopSearch(): the index was not opened by openYioopBundle()");
		RETURN_THROWS();
	}
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	gpupost_yioop_search(ix, ws, options, &ctx, return_value);
	call_end();
}

GP_METHOD(GpuPost_Index, info)
{
	ZEND_PARSE_PARAMETERS_NONE();
	index_obj *o = THIS_INDEX();
	gp_index *ix = index_of(o);
	if (!ix) RETURN_THROWS();
	static const char *formats[] = {"", "MOD9", "S9", "QS"};
	array_init(return_value);
	add_assoc_long(return_value, "terms", (zend_long)ix->n_terms);
	add_assoc_long(return_value, "docs", (zend_long)ix->n_docs);
	add_assoc_long(return_value, "postings", (zend_long)ix->n_postings);
	add_assoc_long(return_value, "positions", (zend_long)ix->n_positions);
	add_assoc_string(return_value, "format", (char *)formats[ix->format]);
	add_assoc_bool(return_value, "positional", ix->positional);
	add_assoc_long(return_value, "bytes_host", (zend_long)gp_index_host_bytes(ix));
	add_assoc_long(return_value, "bytes_mapped", (zend_long)ix->mapped_len);
	add_assoc_long(return_value, "bytes_device", (zend_long)ix->device_bytes);
	add_assoc_long(return_value, "device_shards", (zend_long)ix->device_shards);
	zval shards;
	array_init_size(&shards, (uint32_t)ix->device_shards);
	for (size_t d = 0; d < ix->device_shards; d++) add_next_index_long(&shards, (zend_long)ix->shard_postings[d]);
	add_assoc_zval(return_value, "shard_postings", &shards);
	add_assoc_string(return_value, "backend", o->place != GP_PLACE_HOST && ix->device ? "opencl" : "host");
	add_assoc_string(return_value, "last_backend", (char *)o->last_backend);
	add_assoc_string(return_value, "device_lists", ix->device ? (ix->device_compressed ? "compressed" : "decoded")
	                 : ix->device_lists == GP_IX_LISTS_COMPRESSED ? "compressed" : ix->device_lists == GP_IX_LISTS_DECODED ? "decoded" : "auto");
	add_assoc_string(return_value, "placement", o->place == GP_PLACE_HOST ? "host" : o->place == GP_PLACE_DEVICE ? "device" : "auto");
	add_assoc_bool(return_value, "persistent", o->persistent);
	static const char *server_modes[] = {"none", "auto", "required"};
	add_assoc_string(return_value, "server", (char *)server_modes[o->server]);
	if (o->answered_by) add_assoc_string(return_value, "answered_by", (char *)o->answered_by);
	else add_assoc_null(return_value, "answered_by");
	add_assoc_bool(return_value, "reused", o->reused);
	if (o->file) add_assoc_str(return_value, "file", zend_string_copy(o->file));
	else add_assoc_null(return_value, "file");
}

/* --- module --- */

void gpupost_index_minit(zend_class_entry *ce)
{
	index_ce = ce;
	index_ce->create_object = index_create;
	memcpy(&index_handlers, zend_get_std_object_handlers(), sizeof(index_handlers));
	index_handlers.offset = XtOffsetOf(index_obj, std);
	index_handlers.free_obj = index_free_obj;
	index_handlers.clone_obj = NULL;
	index_handlers.compare = zend_objects_not_comparable;   /* two indexes are never == */
}

void gpupost_index_minfo(void)
{
	char buf[120];
	snprintf(buf, sizeof(buf), "%zu indexes, %llu bytes (host and device)", gpupost_resident_count(),
	         (unsigned long long)gpupost_resident_bytes());
	php_info_print_table_row(2, "Persistent indexes", buf);
}
