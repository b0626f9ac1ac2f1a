/* The persistent GpuPost\Index copies of this process (open() with 'persistent'): kept after the
 * request, keyed by the resolved path, reused while the file's size and mtime stay, the least
 * recently used dropped first when gpupost.max_resident_bytes would be passed. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_gpupost.h"
#include "php_gpupost_glue.h"

/* The persistent indexes of this process: reused while a file's path, size and mtime stay, the
 * least recently used dropped first when gpupost.max_resident_bytes would be passed. */
typedef struct resident {
	char *path;
	zend_off_t size;
	time_t mtime;
	long mtime_ns;
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
static bool resident_make_room(uint64_t bytes)
{
	uint64_t cap = (uint64_t)GPUPOST_G(max_resident_bytes);
	while (residents.n > 0 && gpupost_resident_bytes() + bytes > cap) {
		size_t lru = 0;
		for (size_t i = 1; i < residents.n; i++) {
			if (residents.r[i].used < residents.r[lru].used) lru = i;
		}
		resident_drop(lru);
	}
	return bytes <= cap;
}

static void stat_of(php_stream_statbuf *sb, time_t *mtime, long *ns)
{
	*mtime = sb->sb.st_mtime;
#if defined(__linux__)
	*ns = sb->sb.st_mtim.tv_nsec;
#else
	*ns = 0;
#endif
}

gp_index *gpupost_resident_find(const char *path, const php_stream_statbuf *sb)
{
	time_t mtime;
	long ns;
	stat_of((php_stream_statbuf *)sb, &mtime, &ns);
	for (size_t i = 0; i < residents.n; i++) {
		resident *r = &residents.r[i];
		if (strcmp(r->path, path) != 0) continue;
		if (r->size == sb->sb.st_size && r->mtime == mtime && r->mtime_ns == ns) {
			r->used = ++residents.tick;
			gp_index_ref(r->ix);
			return r->ix;
		}
		resident_drop(i);   /* the file changed: the old copy goes */
		return NULL;
	}
	return NULL;
}

bool gpupost_resident_add(const char *path, const php_stream_statbuf *sb, gp_index *ix)
{
	uint64_t bytes = resident_bytes_of(ix);
	if (!resident_make_room(bytes)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the persistent index %s would need %llu bytes, "
		                        "more than gpupost.max_resident_bytes (" ZEND_LONG_FMT ")", path,
		                        (unsigned long long)bytes, GPUPOST_G(max_resident_bytes));
		return false;
	}
	if (residents.n == residents.cap) {
		size_t cap = residents.cap ? residents.cap * 2 : 4;
		resident *r = realloc(residents.r, cap * sizeof(*r));
		if (!r) return true;   /* kept for this request only */
		residents.r = r;
		residents.cap = cap;
	}
	resident *r = &residents.r[residents.n];
	if (!(r->path = strdup(path))) return true;
	r->size = sb->sb.st_size;
	stat_of((php_stream_statbuf *)sb, &r->mtime, &r->mtime_ns);
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
