/* GpuPost\Index's files as the PHP face reads and writes them. A local path (no scheme, or
 * file://) is opened by the system calls themselves, so that what PHP's plain-files wrapper
 * would do wrong here cannot happen: save() writes a new file under a fresh name in the
 * target's directory (O_EXCL, never through a link planted there, short whatever the target's
 * name), syncs it, renames it over the target and syncs the directory; open() reads only a
 * regular file (a FIFO would block, a device never end) and reads to its end within the call's
 * budget (a file of /proc says it holds 0 bytes). Any other stream wrapper goes through PHP's
 * streams, its warnings made the exception. open_basedir applies to both. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "php.h"
#include "main/php_open_temporary_file.h"
#include "zend_exceptions.h"

#include "php_gpupost.h"
#include "php_gpupost_glue.h"

/* A local file's path (file:// taken off), resolved against the working directory and within
 * open_basedir; false with nothing thrown for a stream wrapper's URL; false thrown otherwise.
 * With keep_name, only the directory is resolved and the last name kept as it is: save() then
 * replaces a link of that name instead of writing where it points. */
static bool local_path(const char *path, const char *what, char *real, bool *local, bool keep_name)
{
	*local = false;
	if (strncmp(path, "file://", 7) == 0) {
		/* as PHP's plain files take them: file:///abs or file://localhost/abs, nothing else */
		path += 7;
		if (strncmp(path, "localhost/", 10) == 0) path += 9;
		if (path[0] != '/') {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "the %s file://%s names no absolute local path "
			                        "(file:///path or file://localhost/path)", what, path);
			*local = true;   /* thrown */
			return false;
		}
	} else if (strstr(path, "://")) {
		if (strlen(path) < MAXPATHLEN) return false;   /* a wrapper's URL, kept as its name */
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the %s's URL is longer than %d bytes", what, MAXPATHLEN - 1);
		*local = true;   /* thrown */
		return false;
	}
	*local = true;
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	keep_name = keep_name && *name && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
	char dir[MAXPATHLEN];
	size_t dir_len = slash ? (size_t)(slash - path) : 0;
	if (keep_name) {
		if (dir_len >= sizeof(dir)) dir_len = sizeof(dir) - 1;
		memcpy(dir, slash ? path : ".", slash ? dir_len : 1);
		dir[slash ? dir_len : 1] = '\0';
		if (slash && dir_len == 0) strcpy(dir, "/");
	}
	if (!expand_filepath(keep_name ? dir : path, real) ||
	    (keep_name && snprintf(real + strlen(real), MAXPATHLEN - strlen(real), "%s%s",
	                           strcmp(real, "/") == 0 ? "" : "/", name) >= (int)(MAXPATHLEN - strlen(real)))) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot resolve the %s %s", what, path);
		return false;
	}
	if (php_check_open_basedir_ex(real, 0) != 0) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "the %s %s is outside open_basedir", what, real);
		return false;
	}
	return true;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static bool write_all(int fd, const uint8_t *p, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, p, len > ((size_t)1 << 30) ? (size_t)1 << 30 : len);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) return false;
		p += k;
		len -= (size_t)k;
	}
	return true;
}

static int write_to_fd(void *fd, const void *bytes, size_t len)
{
	return write_all(*(int *)fd, bytes, len) ? 0 : -1;
}

static int write_to_stream(void *stream, const void *bytes, size_t len)
{
	return php_stream_write((php_stream *)stream, bytes, len) == (ssize_t)len ? 0 : -1;
}

/* The directory part of a resolved path ("/" for a file at the root). */
static void dir_of(const char *real, char *dir)
{
	const char *slash = strrchr(real, '/');
	size_t n = slash ? (size_t)(slash - real) : 0;
	if (n == 0) {
		strcpy(dir, slash ? "/" : ".");
		return;
	}
	memcpy(dir, real, n);
	dir[n] = '\0';
}

static void throw_write(const char *path, const char *why, int errnum)
{
	zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot write the index file %s: %s%s%s", path, why,
	                        errnum ? ": " : "", errnum ? strerror(errnum) : "");
}

/* save() to a local file: a fresh file beside the target, synced, renamed over it, the
 * directory synced (a crash leaves the old file or the new one, whole). */
static bool save_local(const gp_index *ix, int version, const char *real)
{
	char dir[MAXPATHLEN], tmp[MAXPATHLEN];
	static unsigned long serial;
	gp_error err;
	int fd = -1;
	struct stat st;
	/* a FIFO, a device or a directory is not replaced by a file (a link is: it is the name) */
	if (lstat(real, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot write the index file %s: it is %s", real, file_kind(st.st_mode));
		return false;
	}
	dir_of(real, dir);
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		snprintf(tmp, sizeof(tmp), "%s/.gpupost-%ld-%lu.tmp", dir, (long)getpid(), ++serial);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) break;
	}
	if (fd < 0) {
		throw_write(real, "cannot create a file in its directory", errno);
		return false;
	}
	int rc = gp_index_save(ix, version, write_to_fd, &fd, &err), errnum = rc == GP_OK ? 0 : errno;
	const char *why = rc == GP_OK ? NULL : err.code == GP_EVALUE && err.rule[0] && strcmp(err.rule, "the file could not be written") != 0 ? err.rule : "writing failed";
	if (rc != GP_OK && why != err.rule && errnum == 0) errnum = EIO;
	if (rc == GP_OK && fsync(fd) != 0) {
		why = "syncing failed";
		errnum = errno;
	}
	if (close(fd) != 0 && !why) {
		why = "closing failed";
		errnum = errno;
	}
	if (!why && rename(tmp, real) != 0) {
		why = "renaming over it failed";
		errnum = errno;
	}
	if (why) {
		unlink(tmp);
		throw_write(real, why, why == err.rule ? 0 : errnum);
		return false;
	}
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);   /* the rename made durable */
	if (d >= 0) {
		fsync(d);
		close(d);
	}
	return true;
}

/* Another wrapper's I/O: its warnings become the exception (EH_THROW); its notices (a stream not
 * writable, a write that failed) are PHP's way of saying why, so they become the exception's
 * reason instead of being shown beside it or left in error_get_last(). */
typedef struct wrapper_io {
	zend_error_handling eh;
	int reporting, last_type, last_lineno;
	zend_string *last_message, *last_file;
} wrapper_io;

static void wrapper_io_begin(wrapper_io *w)
{
	zend_replace_error_handling(EH_THROW, gpupost_exception_ce, &w->eh);
	w->reporting = EG(error_reporting);
	EG(error_reporting) &= ~(E_NOTICE | E_USER_NOTICE | E_DEPRECATED | E_USER_DEPRECATED);
	w->last_type = PG(last_error_type);
	w->last_lineno = PG(last_error_lineno);
	w->last_message = PG(last_error_message) ? zend_string_copy(PG(last_error_message)) : NULL;
	w->last_file = PG(last_error_file) ? zend_string_copy(PG(last_error_file)) : NULL;
}

/* Ends it: the last notice's text, if one came, into why (else why untouched); the last error put
 * back as it was. */
static void wrapper_io_end(wrapper_io *w, char *why, size_t why_len)
{
	if (PG(last_error_message) && PG(last_error_message) != w->last_message) {
		snprintf(why, why_len, "%s", ZSTR_VAL(PG(last_error_message)));
	}
	if (PG(last_error_message)) zend_string_release(PG(last_error_message));
	if (PG(last_error_file)) zend_string_release(PG(last_error_file));
	PG(last_error_type) = w->last_type;
	PG(last_error_lineno) = w->last_lineno;
	PG(last_error_message) = w->last_message;
	PG(last_error_file) = w->last_file;
	EG(error_reporting) = w->reporting;
	zend_restore_error_handling(&w->eh);
}

bool gpupost_index_file_save(const gp_index *ix, int version, const char *path)
{
	char real[MAXPATHLEN];
	bool local;
	if (local_path(path, "index file", real, &local, true)) return save_local(ix, version, real);
	if (local || EG(exception)) return false;
	/* another wrapper: written through it (as atomic as the wrapper is) */
	wrapper_io w;
	gp_error err;
	char why[256] = "the stream refused it";
	memset(&err, 0, sizeof(err));
	wrapper_io_begin(&w);
	php_stream *s = php_stream_open_wrapper((char *)path, "wb", REPORT_ERRORS, NULL);
	int rc = GP_EVALUE;
	if (s) {
		rc = gp_index_save(ix, version, write_to_stream, s, &err);
		if (php_stream_close(s) != 0 && rc == GP_OK) rc = GP_EVALUE;
	}
	wrapper_io_end(&w, why, sizeof(why));
	if (rc != GP_OK && !EG(exception)) {
		throw_write(path, err.rule[0] && strcmp(err.rule, "the file could not be written") != 0 ? err.rule : why, 0);
	}
	return rc == GP_OK && !EG(exception);
}

/* --- reading --- */

typedef struct image {
	uint8_t *p;
	size_t len, cap;
	void *pinned;           /* gp_index_image's handle, or NULL: malloc'd */
} image;

void gpupost_index_image_free(uint8_t *p, void *pinned)
{
	if (pinned) gp_index_image_free(pinned, p);
	else free(p);
}

/* Room for `more` bytes after im->len, grown within the budget (a file whose size was not known,
 * or that grew while read). */
static bool image_room(image *im, size_t more, const char *what, const char *path, const gp_ctx *ctx)
{
	if (im->cap - im->len >= more) return true;
	size_t want = im->len + more, cap = im->cap < 65536 ? 65536 : im->cap;
	while (cap < want) cap = cap > SIZE_MAX / 2 ? want : cap * 2;
	gp_error err;
	if (gp_budget_check(&ctx->budget, 0, (uint64_t)cap, "the index file's image", &err) != GP_OK) {
		cap = want;   /* the bytes themselves, rounded no further */
		if (gp_budget_check(&ctx->budget, 0, (uint64_t)cap, "the index file's image", &err) != GP_OK) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "the %s %s: %s", what, path, err.rule);
			return false;
		}
	}
	uint8_t *p = malloc(cap + 1);
	if (!p) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot allocate the image of the %s %s", what, path);
		return false;
	}
	if (im->len) memcpy(p, im->p, im->len);
	gpupost_index_image_free(im->p, im->pinned);
	im->p = p;
	im->pinned = NULL;
	im->cap = cap;
	return true;
}

/* The first image: the size the file says it has (pinned memory when its lists go to a GPU). */
static bool image_begin(image *im, size_t size, const char *what, const char *path, const gp_ctx *ctx,
                        gp_placement place, bool want_pinned)
{
	memset(im, 0, sizeof(*im));
	if (size == 0) return true;
	if (!fits_budget(ctx, 0, (uint64_t)size, "the index file's image")) return false;
	if (want_pinned) im->p = gp_index_image(size, place, ctx, &im->pinned);
	if (!im->p) im->p = malloc(size + 1);
	if (!im->p) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot allocate the image of the %s %s", what, path);
		return false;
	}
	im->cap = size;
	return true;
}

typedef ssize_t (*reader)(void *src, void *buf, size_t len);

static ssize_t read_fd(void *fd, void *buf, size_t len)
{
	ssize_t k;
	while ((k = read(*(int *)fd, buf, len)) < 0 && errno == EINTR) {}
	return k;
}

static ssize_t read_stream(void *s, void *buf, size_t len)
{
	ssize_t k = php_stream_read((php_stream *)s, buf, len);
	return k < 0 ? 0 : k;
}

/* Reads to the end (a read of 0 bytes): into the room there is, then a byte at a time past it
 * (so that a file of the size it said is never copied), growing within the budget. */
static void read_to_end(image *im, reader rd, void *src, const char *what, const char *path, const gp_ctx *ctx)
{
	while (!EG(exception)) {
		uint8_t probe;
		if (im->len == im->cap) {
			ssize_t k = rd(src, &probe, 1);
			if (k <= 0) {
				if (k < 0) zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot read the %s %s: %s", what, path, strerror(errno));
				return;
			}
			if (!image_room(im, 1, what, path, ctx)) return;
			im->p[im->len++] = probe;
			continue;
		}
		ssize_t k = rd(src, im->p + im->len, im->cap - im->len);
		if (k < 0) zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot read the %s %s: %s", what, path, strerror(errno));
		if (k <= 0) return;
		im->len += (size_t)k;
	}
}


uint8_t *gpupost_index_file_read(const char *path, const char *what, bool want_pinned, gp_placement place,
                                 const gp_ctx *ctx, size_t *len, void **pinned, php_stream_statbuf *sb,
                                 char *opened, bool *mapped)
{
	char real[MAXPATHLEN];
	bool local;
	image im;
	memset(sb, 0, sizeof(*sb));
	if (mapped) *mapped = false;
	if (local_path(path, what, real, &local, false)) {
		strcpy(opened, real);
		/* O_NONBLOCK: a FIFO is refused below instead of waiting for a writer */
		int fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot open the %s %s: %s", what, real, strerror(errno));
			return NULL;
		}
		if (fstat(fd, &sb->sb) != 0 || !S_ISREG(sb->sb.st_mode)) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "the %s %s is %s", what, real,
			                        S_ISREG(sb->sb.st_mode) ? "not readable" : file_kind(sb->sb.st_mode));
			close(fd);
			return NULL;
		}
		/* mapped: the page cache holds the file once for every process; a file that cannot be
		 * mapped (procfs, sysfs) is read as any other */
		if (mapped && !want_pinned && sb->sb.st_size > 0 && (uint64_t)sb->sb.st_size <= SIZE_MAX) {
			gp_error err;
			const uint8_t *m = gp_index_map_file(fd, (size_t)sb->sb.st_size, &err);
			if (m) {
				close(fd);
				*mapped = true;
				*len = (size_t)sb->sb.st_size;
				*pinned = NULL;
				return (uint8_t *)m;
			}
		}
		if (!image_begin(&im, (size_t)sb->sb.st_size, what, real, ctx, place, want_pinned)) {
			close(fd);
			return NULL;
		}
		read_to_end(&im, read_fd, &fd, what, real, ctx);
		close(fd);
	} else {
		if (local || EG(exception)) return NULL;
		strcpy(opened, path);
		wrapper_io w;
		char why[256] = "";
		wrapper_io_begin(&w);
		php_stream *s = php_stream_open_wrapper((char *)path, "rb", REPORT_ERRORS, NULL);
		/* a wrapper need not know its size (nor stat at all): read to its end */
		memset(&im, 0, sizeof(im));
		if (s && !EG(exception)) read_to_end(&im, read_stream, s, what, path, ctx);
		if (s) php_stream_close(s);
		wrapper_io_end(&w, why, sizeof(why));
		if (!s && !EG(exception)) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot open the %s %s%s%s", what, path, why[0] ? ": " : "", why);
		}
	}
	if (EG(exception)) {
		gpupost_index_image_free(im.p, im.pinned);
		return NULL;
	}
	if (!im.p) im.p = malloc(1);   /* an empty file: refused by the reader, by its size */
	*len = im.len;
	*pinned = im.pinned;
	return im.p;
}

bool gpupost_index_file_stat(const char *path, const char *what, char *resolved, php_stream_statbuf *sb)
{
	bool local;
	memset(sb, 0, sizeof(*sb));
	if (local_path(path, what, resolved, &local, false)) {
		if (stat(resolved, &sb->sb) == 0) return true;
		zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot open the %s %s: %s", what, resolved, strerror(errno));
		return false;
	}
	if (local || EG(exception)) return false;
	strcpy(resolved, path);
	if (php_stream_stat_path(path, sb) == 0) return true;
	zend_throw_exception_ex(gpupost_exception_ce, 0, "cannot stat the %s %s (a persistent index is known by its file's state)", what, path);
	return false;
}
