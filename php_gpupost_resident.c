/* The persistent GpuPost\Index copies of this process (open() and openYioopShard() with
 * 'persistent'): kept after the request, keyed by the reader that loaded them and the resolved
 * path, reused while the file is the same file unchanged (device, inode, size, mtime and ctime:
 * a file replaced, or rewritten with its mtime put back, has another inode or ctime), the least
 * recently used dropped first when gpupost.max_resident_bytes would be passed. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_gpupost.h"
#include "php_gpupost_glue.h"

/* What identifies a file's state: a change of any field loads it again. */
typedef struct file_id {
	dev_t dev;
	ino_t ino;
	zend_off_t size;
	time_t mtime, ctime;
	long mtime_ns, ctime_ns;
} file_id;

typedef struct resident {
	char *path;
	const char *kind;   /* the reader's name ("index file", "Yioop shard"): one file, one index a reader */
	file_id id;
	gp_index *ix;
	uint64_t used;
} resident;

static struct {
	resident *r;
	size_t n, cap;
	uint64_t tick;
} residents;

static uint64_t resident_bytes_of(const gp_index *ix)
{
	return gp_index_host_bytes(ix) + ix->device_bytes;
}

uint64_t gpupost_resident_bytes(void)
{
	uint64_t b = 0;
	for (size_t i = 0; i < residents.n; i++) b += resident_bytes_of(residents.r[i].ix);
	return b;
}

static void resident_drop(size_t i)
{
	gp_index_unref(residents.r[i].ix);
	free(residents.r[i].path);
	residents.r[i] = residents.r[--residents.n];
}

/* Room for `bytes` more under the cap, dropping the least recently used first (an index in use
 * by an object stays alive through its own reference). */
static void resident_make_room(uint64_t bytes)
{
	uint64_t cap = (uint64_t)GPUPOST_G(max_resident_bytes);
	while (residents.n > 0 && gpupost_resident_bytes() + bytes > cap) {
		size_t lru = 0;
		for (size_t i = 1; i < residents.n; i++) {
			if (residents.r[i].used < residents.r[lru].used) lru = i;
		}
		resident_drop(lru);
	}
}

static void id_of(const php_stream_statbuf *sb, file_id *id)
{
	memset(id, 0, sizeof(*id));
	id->dev = sb->sb.st_dev;
	id->ino = sb->sb.st_ino;
	id->size = sb->sb.st_size;
	id->mtime = sb->sb.st_mtime;
	id->ctime = sb->sb.st_ctime;
#if defined(__linux__)
	id->mtime_ns = sb->sb.st_mtim.tv_nsec;
	id->ctime_ns = sb->sb.st_ctim.tv_nsec;
#endif
}

static bool same_id(const file_id *a, const file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime == b->mtime &&
	       a->mtime_ns == b->mtime_ns && a->ctime == b->ctime && a->ctime_ns == b->ctime_ns;
}

gp_index *gpupost_resident_find(const char *kind, const char *path, const php_stream_statbuf *sb)
{
	file_id id;
	id_of(sb, &id);
	for (size_t i = 0; i < residents.n; i++) {
		resident *r = &residents.r[i];
		if (strcmp(r->path, path) != 0 || strcmp(r->kind, kind) != 0) continue;
		if (same_id(&r->id, &id)) {
			r->used = ++residents.tick;
			gp_index_ref(r->ix);
			return r->ix;
		}
		resident_drop(i);   /* the file changed: the old copy goes */
		return NULL;
	}
	return NULL;
}

bool gpupost_resident_add(const char *kind, const char *path, const php_stream_statbuf *sb, gp_index *ix)
{
	uint64_t bytes = resident_bytes_of(ix), cap = (uint64_t)GPUPOST_G(max_resident_bytes);
	if (bytes > cap) {   /* refused before anything else is dropped for it */
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the persistent index %s would need %llu bytes, "
		                        "more than gpupost.max_resident_bytes (" ZEND_LONG_FMT ")", path,
		                        (unsigned long long)bytes, GPUPOST_G(max_resident_bytes));
		return false;
	}
	resident_make_room(bytes);
	if (residents.n == residents.cap) {
		size_t more = residents.cap ? residents.cap * 2 : 4;
		resident *r = realloc(residents.r, more * sizeof(*r));
		if (!r) return true;   /* kept for this request only */
		residents.r = r;
		residents.cap = more;
	}
	resident *r = &residents.r[residents.n];
	if (!(r->path = strdup(path))) return true;
	r->kind = kind;
	id_of(sb, &r->id);
	r->ix = ix;
	r->used = ++residents.tick;
	gp_index_ref(ix);
	residents.n++;
	return true;
}

void gpupost_resident_shutdown(void)
{
	while (residents.n > 0) resident_drop(residents.n - 1);
	free(residents.r);
	memset(&residents, 0, sizeof(residents));
}

void gpupost_resident_trim(void)
{
	resident_make_room(0);
}

size_t gpupost_resident_count(void)
{
	return residents.n;
}
