/* A Yioop IndexArchiveBundle directory opened as one index (GpuPost\Index::openYioopBundle,
 * API.md "Yioop bundles"): its generation.txt read, each generation's IndexShard file read (or
 * mapped) within the call's budget, and the engine's bundle reader (index/gp_index_yioop_bundle.c)
 * given them; errors name the file and byte. Its docs' summaries: each record read by the
 * engine (index/gp_yioop_archive.c) and unserialized here, as Yioop's WebArchive does, without
 * objects. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "php.h"
#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "zend_exceptions.h"
#include "index/gp_index.h"
#include "index/gp_yioop_archive.h"
#include "index/gp_yioop_search.h"
#include "ext/standard/php_var.h"

/* The most generations a bundle may name (Yioop's MAX_GENERATIONS is 10,000 by default). */
#define BUNDLE_MAX_GENERATIONS 1000000
/* generation.txt is a few dozen bytes; anything past this is no bundle's. */
#define BUNDLE_INFO_MAX 65536

/* dir/generation.txt read and its ACTIVE generation in *active, or false thrown. */
static bool bundle_active(const char *dir, int64_t *active, struct stat *st)
{
	char path[MAXPATHLEN];
	if (snprintf(path, sizeof(path), "%s/generation.txt", dir) >= (int)sizeof(path)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the Yioop bundle's path %s is too long", dir);
		return false;
	}
	if (php_check_open_basedir_ex(path, 0) != 0) {   /* a link out of the directory included */
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the Yioop bundle's %s is outside open_basedir", path);
		return false;
	}
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s is no Yioop bundle: %s: %s", dir, path,
		                        fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0) close(fd);
		return false;
	}
	char buf[BUNDLE_INFO_MAX];
	size_t len = 0;
	for (ssize_t got; len < sizeof(buf) && (got = read(fd, buf + len, sizeof(buf) - len)) != 0;) {
		if (got < 0) {
			if (errno == EINTR) continue;
			zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot read %s: %s", path, strerror(errno));
			close(fd);
			return false;
		}
		len += (size_t)got;
	}
	close(fd);
	gp_error err;
	if (len == sizeof(buf)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: longer than %d bytes (no bundle's generation.txt)", path, BUNDLE_INFO_MAX - 1);
		return false;
	}
	if (gp_yioop_generation_info(buf, len, active, &err) != GP_OK) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: byte %zu: %s", path, err.offset, err.rule);
		return false;
	}
	if (*active >= BUNDLE_MAX_GENERATIONS) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: ACTIVE generation %lld is past the %d a bundle may hold", path,
		                        (long long)*active, BUNDLE_MAX_GENERATIONS);
		return false;
	}
	return true;
}

/* A shard file's header says it was saved without its dictionary (words_len 0). */
static bool shard_without_dictionary(const uint8_t *head, size_t len)
{
	return len >= 40 && !head[4] && !head[5] && !head[6] && !head[7];
}

static void shard_path(char *out, const char *dir, int64_t g)
{
	snprintf(out, MAXPATHLEN, "%s/posting_doc_shards/index%lld", dir, (long long)g);
}

/* The bundle's IndexDictionary as files: each active tier (a <t>A.dic in dictionary/0/), its 256
 * prefix letters' files read in order. */
typedef struct bundle_dict {
	size_t n, n_tiers;
	long *tiers;
	uint8_t **files;
	size_t *lens;
	void **pinned;
} bundle_dict;

static void dictionary_path(char *out, const char *dir, long tier, size_t letter)
{
	snprintf(out, MAXPATHLEN, "%s/dictionary/%zu/%ldA.dic", dir, letter, tier);
}

static void bundle_dictionary_free(bundle_dict *d)
{
	for (size_t i = 0; i < d->n; i++) gpupost_index_image_free(d->files[i], d->pinned[i]);
	if (d->tiers) efree(d->tiers);
	if (d->files) efree(d->files);
	if (d->lens) efree(d->lens);
	if (d->pinned) efree(d->pinned);
	memset(d, 0, sizeof(*d));
}

/* The active tiers of a bundle's IndexDictionary: the names `tA.dic` of dictionary/0/ with t a
 * plain decimal number (no sign, space or leading zero: each tier once) up to 64 (Yioop merges
 * tiers in pairs: 64 would be 2^64 generations); ecalloc'd into *tiers, sorted. False thrown. */
#define BUNDLE_MAX_TIER 64
static int tier_order(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

static bool bundle_tiers(const char *dir, long **tiers, size_t *n)
{
	char path[MAXPATHLEN];
	snprintf(path, sizeof(path), "%s/dictionary/0", dir);
	*tiers = NULL;
	*n = 0;
	if (php_check_open_basedir_ex(path, 0) != 0) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the Yioop bundle's dictionary %s is outside open_basedir", path);
		return false;
	}
	DIR *dh = opendir(path);
	if (!dh) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "a shard of the Yioop bundle %s has no dictionary and the "
		                        "bundle's cannot be read: %s: %s", dir, path, strerror(errno));
		return false;
	}
	*tiers = ecalloc(BUNDLE_MAX_TIER + 2, sizeof(**tiers));
	for (struct dirent *e; (e = readdir(dh));) {
		const char *c = e->d_name;
		long t = 0;
		size_t digits = 0;
		for (; *c >= '0' && *c <= '9' && digits < 3; c++, digits++) t = 10 * t + (*c - '0');
		/* B: a merge's other half; anything else is no tier */
		if (!digits || strcmp(c, "A.dic") != 0 || (digits > 1 && e->d_name[0] == '0')) continue;
		if (t > BUNDLE_MAX_TIER || *n > BUNDLE_MAX_TIER) {
			closedir(dh);
			zend_throw_exception_ex(gpupost_exception_ce, 0, "%s/%s: a tier past the %d a bundle's dictionary holds",
			                        path, e->d_name, BUNDLE_MAX_TIER);
			return false;
		}
		(*tiers)[(*n)++] = t;
	}
	closedir(dh);
	if (!*n) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "a shard of the Yioop bundle %s has no dictionary and %s "
		                        "names no tier of the bundle's", dir, path);
		return false;
	}
	qsort(*tiers, *n, sizeof(**tiers), tier_order);
	return true;
}

static bool bundle_dictionary(const char *dir, const gp_ctx *ctx, uint64_t *held, bundle_dict *d)
{
	char path[MAXPATHLEN], opened[MAXPATHLEN];
	if (!bundle_tiers(dir, &d->tiers, &d->n_tiers)) return false;
	d->files = ecalloc(256 * d->n_tiers + 1, sizeof(*d->files));
	d->lens = ecalloc(256 * d->n_tiers + 1, sizeof(*d->lens));
	d->pinned = ecalloc(256 * d->n_tiers + 1, sizeof(*d->pinned));
	for (size_t t = 0; t < d->n_tiers; t++) {
		for (size_t p = 0; p < 256; p++) {
			php_stream_statbuf fsb;
			dictionary_path(path, dir, d->tiers[t], p);
			uint8_t *f = gpupost_index_file_read(path, "Yioop dictionary", false, GP_PLACE_HOST, ctx, &d->lens[d->n],
			                                     &d->pinned[d->n], &fsb, opened, NULL);
			if (!f) return false;
			d->files[d->n] = f;
			/* the files held at once, the shards' included, within the call's cap */
			*held += d->lens[d->n++];
			if (!fits_budget(ctx, 0, *held, "the Yioop bundle's files")) return false;
		}
	}
	return true;
}

/* The state a persistent bundle is known by: the directory's device, the sum of its
 * generation.txt's and shards' sizes, the latest of their times of change, and (as the inode) a
 * digest of every file's inode, size, modification and status-change times, so that a file
 * replaced by another of the same size and time is seen too. */
static void bundle_state_add(php_stream_statbuf *sb, uint64_t *digest, const struct stat *st)
{
	sb->sb.st_size += st->st_size;
	if (st->st_mtim.tv_sec > sb->sb.st_mtim.tv_sec ||
	    (st->st_mtim.tv_sec == sb->sb.st_mtim.tv_sec && st->st_mtim.tv_nsec > sb->sb.st_mtim.tv_nsec)) {
		sb->sb.st_mtim = st->st_mtim;
	}
	const uint64_t parts[6] = {(uint64_t)st->st_ino, (uint64_t)st->st_size, (uint64_t)st->st_mtim.tv_sec,
	                           (uint64_t)st->st_mtim.tv_nsec, (uint64_t)st->st_ctim.tv_sec, (uint64_t)st->st_ctim.tv_nsec};
	for (int i = 0; i < 6; i++) {   /* FNV-1a over the parts' bytes */
		for (int b = 0; b < 8; b++) *digest = (*digest ^ ((parts[i] >> (8 * b)) & 0xFF)) * 1099511628211ull;
	}
}

bool gpupost_yioop_bundle_stat(const char *dir, char *real, php_stream_statbuf *sb)
{
	if (!gpupost_index_file_stat(dir, "Yioop bundle", real, sb)) return false;
	if (!S_ISDIR(sb->sb.st_mode)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the Yioop bundle %s is not a directory", real);
		return false;
	}
	struct stat st;
	int64_t active;
	if (!bundle_active(real, &active, &st)) return false;
	uint64_t digest = 14695981039346656037ull;
	sb->sb.st_size = 0;
	sb->sb.st_mtim = st.st_mtim;
	bundle_state_add(sb, &digest, &st);
	/* a generation without its file ends the walk: no bundle opens past it */
	bool bare = false;
	for (int64_t g = 0; g <= active; g++) {
		char path[MAXPATHLEN];
		shard_path(path, real, g);
		if (stat(path, &st) != 0) break;
		bundle_state_add(sb, &digest, &st);
		/* saved without its dictionary: the bundle's dictionary is part of the state */
		uint8_t head[40];
		int fd = !bare ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
		if (fd >= 0) {
			bare = pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) && shard_without_dictionary(head, sizeof(head));
			close(fd);
		}
	}
	long *tiers = NULL;
	size_t n_tiers = 0;
	if (bare && bundle_tiers(real, &tiers, &n_tiers)) {
		for (size_t t = 0; t < n_tiers; t++) {
			for (size_t p = 0; p < 256; p++) {
				char path[MAXPATHLEN];
				dictionary_path(path, real, tiers[t], p);
				if (stat(path, &st) == 0) bundle_state_add(sb, &digest, &st);
			}
		}
	}
	if (tiers) efree(tiers);
	if (EG(exception)) return false;
	sb->sb.st_ino = (ino_t)digest;
	return true;
}

gp_index *gpupost_yioop_bundle_open(const char *dir, const gp_ctx *ctx, char *real, php_stream_statbuf *sb)
{
	if (!gpupost_yioop_bundle_stat(dir, real, sb)) return NULL;
	struct stat st;
	int64_t active;
	if (!bundle_active(real, &active, &st)) return NULL;
	const size_t n = (size_t)active + 1;
	if (!fits_budget(ctx, (uint64_t)n * 41, 0, "the Yioop bundle's table of generations")) return NULL;
	const uint8_t **files = ecalloc(n, sizeof(*files));
	size_t *lens = ecalloc(n, sizeof(*lens));
	void **pinned = ecalloc(n, sizeof(*pinned));
	uint64_t *base = ecalloc(n + 1, sizeof(*base));
	bundle_dict dict = {0};
	uint64_t held = 0;   /* the files' bytes read so far */
	gp_index *ix = NULL;
	char path[MAXPATHLEN], opened[MAXPATHLEN];
	for (size_t g = 0; g < n; g++) {
		shard_path(path, real, (int64_t)g);
		/* the active generation has no file until Yioop first saves it */
		if (g == n - 1 && access(path, F_OK) != 0 && errno == ENOENT) break;
		/* read, not mapped: Yioop saves a shard in place (truncated, then written), which would
		 * pull a mapping's pages from under the reader */
		php_stream_statbuf fsb;
		files[g] = gpupost_index_file_read(path, "Yioop shard", false, GP_PLACE_HOST, ctx, &lens[g], &pinned[g], &fsb,
		                                   opened, NULL);
		if (!files[g]) goto done;
		held += lens[g];
		if (!fits_budget(ctx, 0, held, "the Yioop bundle's files")) goto done;
	}
	/* a shard saved without its dictionary: the bundle's IndexDictionary, every active tier */
	bool need = false;
	for (size_t g = 0; g < n; g++) need |= files[g] && shard_without_dictionary(files[g], lens[g]);
	if (need && !bundle_dictionary(real, ctx, &held, &dict)) goto done;
	gp_error err;
	size_t bad;
	int rc = gp_index_yioop_bundle_load(n, files, lens, dict.n, (const uint8_t *const *)dict.files, dict.lens,
	                                    &ctx->budget, &ix, base, &bad, &err);
	if (rc != GP_OK) {
		ix = NULL;
		if (err.code == GP_EFORMAT && bad < n) {
			shard_path(path, real, (int64_t)bad);
			zend_throw_exception_ex(gpupost_exception_ce, 0, "Yioop shard %s: byte %zu: %s", path, err.offset, err.rule);
		} else if (err.code == GP_EFORMAT && bad != SIZE_MAX && bad - n < dict.n) {
			dictionary_path(path, real, dict.tiers[(bad - n) / 256], (bad - n) % 256);
			zend_throw_exception_ex(gpupost_exception_ce, 0, "Yioop dictionary %s: byte %zu: %s", path, err.offset, err.rule);
		} else if (err.code == GP_EFORMAT || err.code == GP_EVALUE) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "Yioop bundle %s: %s", real, err.rule);
		} else {
			gpupost_throw(&err, NULL);
		}
	}
done:
	bundle_dictionary_free(&dict);
	for (size_t g = 0; g < n; g++) {
		if (!files[g]) continue;
		gpupost_index_image_free((uint8_t *)files[g], pinned[g]);
	}
	efree(files);
	efree(lens);
	efree(pinned);
	efree(base);
	return ix;
}

/* A generation's web archive, opened at its first use in a call. */
typedef struct archive_file {
	int fd;
	uint64_t len;
} archive_file;

static bool archive_open(archive_file *a, const char *dir, int64_t g, char *path)
{
	snprintf(path, MAXPATHLEN, "%s/summaries/web_archive_%lld.txt.gz", dir, (long long)g);
	if (a->fd >= 0) return true;
	if (php_check_open_basedir_ex(path, 0) != 0) {   /* a link out of the bundle included */
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the Yioop web archive %s is outside open_basedir", path);
		return false;
	}
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot open the Yioop web archive %s: %s", path,
		                        fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0) close(fd);
		return false;
	}
	a->fd = fd;
	a->len = (uint64_t)st.st_size;
	return true;
}

static void archive_file_free(zval *z)
{
	efree(Z_PTR_P(z));
}

/* Whether every entry of docs is a doc of the bundle (an int where a doc record starts: its
 * generation attribute set); else a TypeError or ValueError thrown. */
static bool bundle_docs_valid(const gp_index *ix, HashTable *docs)
{
	const int gen_attr = gp_index_attribute_find(ix, "generation", 10);
	zval *v;
	ZEND_HASH_FOREACH_VAL(docs, v) {
		ZVAL_DEREF(v);
		if (Z_TYPE_P(v) != IS_LONG) {
			zend_argument_type_error(1, "must hold docs as int, %s given", zend_zval_type_name(v));
			return false;
		}
		double g = Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > UINT32_MAX || gen_attr < 0 ? NAN
		           : gp_index_attribute(ix, (uint32_t)gen_attr, (uint32_t)Z_LVAL_P(v));
		if (g != g) {
			zend_argument_value_error(1, "doc " ZEND_LONG_FMT " is no doc of the bundle (no doc record starts there)", Z_LVAL_P(v));
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

void gpupost_yioop_summaries(const gp_index *ix, const char *dir, HashTable *docs, const gp_ctx *ctx, zval *rv)
{
	const int gen_attr = gp_index_attribute_find(ix, "generation", 10);
	const int off_attr = gp_index_attribute_find(ix, "summary_offset", 14);
	zval *v;
	if (!bundle_docs_valid(ix, docs)) return;   /* every doc checked before a file is read */
	HashTable files;   /* generation => archive_file */
	zend_hash_init(&files, 8, NULL, archive_file_free, 0);
	HashTable no_classes;   /* unserialize()'s allowed_classes => false */
	zend_hash_init(&no_classes, 0, NULL, NULL, 0);
	char path[MAXPATHLEN];
	uint64_t pages_bytes = 0;
	array_init_size(rv, zend_hash_num_elements(docs));
	ZEND_HASH_FOREACH_VAL(docs, v) {
		ZVAL_DEREF(v);
		const uint32_t d = (uint32_t)Z_LVAL_P(v);
		const int64_t g = (int64_t)gp_index_attribute(ix, (uint32_t)gen_attr, d);
		const uint64_t offset = (uint64_t)gp_index_attribute(ix, (uint32_t)off_attr, d);
		archive_file *a = zend_hash_index_find_ptr(&files, (zend_ulong)g);
		if (!a) {
			archive_file fresh = {-1, 0};
			a = zend_hash_index_add_mem(&files, (zend_ulong)g, &fresh, sizeof(fresh));
		}
		if (!archive_open(a, dir, g, path)) break;
		uint8_t *text;
		size_t len;
		uint64_t next;
		gp_error err;
		int rc = gp_yioop_archive_record(a->fd, a->len, offset, &ctx->budget, &text, &len, &next, &err);
		if (rc == GP_EFORMAT || rc == GP_EVALUE) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "Yioop web archive %s: byte %zu: %s (the summary of doc %u)",
			                        path, err.offset, err.rule, d);
			break;
		}
		if (rc != GP_OK) {
			gpupost_throw(&err, NULL);
			break;
		}
		/* as unserialize() does it: a value that fails is freed before the state is */
		/* the pages made so far and this one, at about three times their serialized bytes (the
		 * arrays and strings they become), within the room PHP has and the call's cap */
		pages_bytes += 3 * (uint64_t)len + 64;
		if (!fits_budget(ctx, pages_bytes, 0, "the pages' summaries")) {
			free(text);
			break;
		}
		zval page;
		ZVAL_NULL(&page);
		const unsigned char *p = text;
		php_unserialize_data_t vh = php_var_unserialize_init();
		php_var_unserialize_set_allowed_classes(vh, &no_classes);
		/* bytes after the page are left, as unserialize() leaves them */
		bool ok = php_var_unserialize(&page, &p, p + len, &vh);
		if (!ok) zval_ptr_dtor(&page);
		php_var_unserialize_destroy(vh);
		free(text);
		if (!ok) {
			if (!EG(exception)) {
				zend_throw_exception_ex(gpupost_exception_ce, 0, "Yioop web archive %s: byte %llu: the record of doc %u is "
				                        "no serialized page", path, (unsigned long long)offset, d);
			}
			break;
		}
		zend_hash_index_update(Z_ARRVAL_P(rv), d, &page);
	} ZEND_HASH_FOREACH_END();
	archive_file *a;
	ZEND_HASH_FOREACH_PTR(&files, a) {
		if (a->fd >= 0) close(a->fd);
	} ZEND_HASH_FOREACH_END();   /* the table's entries freed with it */
	zend_hash_destroy(&files);
	zend_hash_destroy(&no_classes);
}

void gpupost_yioop_docs(const gp_index *ix, HashTable *docs, zval *rv)
{
	const gp_yioop_docs *y = ix->yioop;
	zval *v;
	if (!bundle_docs_valid(ix, docs)) return;
	const int gen_attr = gp_index_attribute_find(ix, "generation", 10);
	const int index_attr = gp_index_attribute_find(ix, "doc_index", 9);
	const int off_attr = gp_index_attribute_find(ix, "summary_offset", 14);
	array_init_size(rv, zend_hash_num_elements(docs));
	ZEND_HASH_FOREACH_VAL(docs, v) {
		ZVAL_DEREF(v);
		const uint32_t d = (uint32_t)Z_LVAL_P(v);
		const size_t g = (size_t)gp_index_attribute(ix, (uint32_t)gen_attr, d);
		const uint64_t x = (uint64_t)gp_index_attribute(ix, (uint32_t)index_attr, d);
		const uint32_t doc_int = y->doc_int[d];
		uint32_t doc_len = doc_int >> 8;
		const bool is_doc = !(doc_len & 0x800000u);
		if (!is_doc) doc_len &= 0x7FFFFFu;
		zval row, rank;
		array_init_size(&row, 7);
		add_assoc_stringl(&row, "key", (const char *)y->keys + GP_YIOOP_DOC_KEYS * d, GP_YIOOP_DOC_KEYS);
		const uint32_t *h = y->header + GP_YIOOP_HEADER_FIELDS * g;
		add_assoc_long(&row, "generation", (zend_long)h[GP_YH_GENERATION]);
		add_assoc_long(&row, "doc_index", (zend_long)x);
		add_assoc_long(&row, "summary_offset", (zend_long)gp_index_attribute(ix, (uint32_t)off_attr, d));
		add_assoc_long(&row, "doc_len", (zend_long)doc_len);
		add_assoc_bool(&row, "is_doc", is_doc);
		int archive;
		const double doc_rank = gp_yioop_doc_rank(y, d, g, gpupost_round_decimal, &archive);
		if (archive) ZVAL_LONG(&rank, (zend_long)doc_rank);
		else ZVAL_DOUBLE(&rank, doc_rank);
		add_assoc_zval(&row, "doc_rank", &rank);
		zend_hash_index_update(Z_ARRVAL_P(rv), (zend_ulong)d, &row);
	} ZEND_HASH_FOREACH_END();
}

void gpupost_yioop_generations(const gp_index *ix, zval *rv)
{
	const gp_yioop_docs *y = ix->yioop;
	static const char *names[] = {"generation", "docs_per_generation", "num_docs", "num_link_docs", "len_all_docs",
	                              "len_all_link_docs"};
	array_init_size(rv, (uint32_t)y->n_gens);
	for (size_t g = 0; g < y->n_gens; g++) {
		zval row;
		array_init_size(&row, 8);
		add_assoc_long(&row, "first_doc", (zend_long)y->base[g]);
		add_assoc_long(&row, "doc_indices", (zend_long)(y->base[g + 1] - y->base[g]));
		for (int f = GP_YH_GENERATION; f <= GP_YH_LEN_LINK_DOCS; f++) {
			add_assoc_long(&row, names[f - GP_YH_GENERATION], (zend_long)y->header[GP_YIOOP_HEADER_FIELDS * g + f]);
		}
		zend_hash_index_update(Z_ARRVAL_P(rv), (zend_ulong)g, &row);
	}
}
