/* The catalog (server/gpd_server.h): each index file opened once, mapped, whoever asks; a client
 * names a path, the server opens it only when the file it reaches, links resolved, lies under a
 * configured directory. A file replaced under its path (save() writes a new file and renames it)
 * is opened anew at the next OPEN, and the old copy retired once no query holds it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpd_server.h"

#define HANDLE_SLOT_BITS 13   /* max_indexes is at most 4096 */

int gpd_catalog_init(gpd_catalog *cat, const gpd_config *cfg)
{
	memset(cat, 0, sizeof(*cat));
	cat->cfg = cfg;
	cat->n_slots = cfg->max_indexes;
	cat->slot = calloc(cat->n_slots, sizeof(*cat->slot));
	if (!cat->slot) return -1;
	pthread_mutex_init(&cat->lock, NULL);
	return 0;
}

static void index_free(gpd_index *x)
{
	gp_index_unref(x->ix);
	free(x);
}

void gpd_catalog_free(gpd_catalog *cat)
{
	for (uint32_t i = 0; i < cat->n_slots; i++) {
		if (cat->slot[i]) index_free(cat->slot[i]);
	}
	free(cat->slot);
	pthread_mutex_destroy(&cat->lock);
}

/* Whether the resolved path lies under one of the configured directories. */
static int allowed(const gpd_config *cfg, const char *real)
{
	for (size_t i = 0; i < cfg->n_dirs; i++) {
		size_t n = strlen(cfg->allow_dir[i]);
		if (strcmp(cfg->allow_dir[i], "/") == 0) return 1;
		if (strncmp(real, cfg->allow_dir[i], n) == 0 && real[n] == '/') return 1;
	}
	return 0;
}

static int is_allowed_dir(const gpd_config *cfg, const char *real)
{
	for (size_t i = 0; i < cfg->n_dirs; i++) {
		if (strcmp(cfg->allow_dir[i], real) == 0) return 1;
	}
	return 0;
}

/* The path of what fd is open on, as the kernel resolved it (links, "..", bind mounts seen
 * from here): checked instead of the name given, so that no link swapped after a check escapes. */
static int fd_path(int fd, char *out, size_t cap)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(proc, out, cap - 1);
	if (n < 0 || (size_t)n >= cap - 1) return -1;
	out[n] = '\0';
	return 0;
}

/* A slot for a new index (the catalog's lock held): a free one; else the least recently used
 * index no query holds is dropped (its clients' handles then ask to open again); -1 when every
 * index is in use. */
static int free_slot(gpd_catalog *cat)
{
	int victim = -1;
	for (uint32_t i = 0; i < cat->n_slots; i++) {
		gpd_index *x = cat->slot[i];
		if (!x) return (int)i;
		if (atomic_load(&x->refs) != 0) continue;
		if (victim < 0 || x->retired > cat->slot[victim]->retired ||
		    (x->retired == cat->slot[victim]->retired && atomic_load(&x->last_used) < atomic_load(&cat->slot[victim]->last_used))) {
			victim = (int)i;
		}
	}
	if (victim >= 0) {
		gpd_log("dropped %s (handle %u) for a new index", cat->slot[victim]->path, cat->slot[victim]->handle);
		index_free(cat->slot[victim]);
		cat->slot[victim] = NULL;
	}
	return victim;
}

static int refuse(int status, char *msg, size_t cap, const char *fmt, const char *a, const char *b)
{
	snprintf(msg, cap, fmt, a, b);
	return status;
}

int gpd_catalog_open(gpd_catalog *cat, const char *path, uint32_t flags, int device, const gp_ctx *ctx,
                     gpd_index **out, char *msg, size_t cap)
{
	*out = NULL;
	if (path[0] != '/') return refuse(GP_WIRE_DENIED, msg, cap, "the index file %s: not an absolute path%s", path, "");
	for (const char *p = path; *p; p++) {
		if ((unsigned char)*p < 0x20) return refuse(GP_EVALUE, msg, cap, "the index file's path holds a control character%s%s", "", "");
	}
	/* the path resolved (links, "..") and confined before anything is opened: a device node or a
	 * FIFO outside is never touched. A path outside is refused alike whether or not it exists;
	 * only a file missing from an allowed directory is named as missing. */
	char real[PATH_MAX];
	if (!realpath(path, real)) {
		const int e = errno;
		char parent[PATH_MAX], parent_real[PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", path);
		char *slash = strrchr(parent, '/');
		if (slash == parent) slash[1] = '\0';
		else *slash = '\0';
		if (e == ENOENT && realpath(parent, parent_real) && (allowed(cat->cfg, parent_real) || is_allowed_dir(cat->cfg, parent_real))) {
			return refuse(GP_EVALUE, msg, cap, "cannot open the index file %s: %s", path, strerror(e));
		}
		return refuse(GP_WIRE_DENIED, msg, cap, "the index file %s is not under the server's allowed directories%s", path, "");
	}
	if (!allowed(cat->cfg, real) && !is_allowed_dir(cat->cfg, real)) {
		return refuse(GP_WIRE_DENIED, msg, cap, "the index file %s is not under the server's allowed directories%s", path, "");
	}
	/* O_NONBLOCK: a FIFO is refused below instead of waiting for a writer; O_NOFOLLOW and the
	 * check of what was opened: a link swapped in after the check does not escape */
	int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) return refuse(GP_EVALUE, msg, cap, "cannot open the index file %s: %s", real, strerror(errno));
	struct stat sb;
	if (fd_path(fd, real, sizeof(real)) != 0 || (!allowed(cat->cfg, real) && !is_allowed_dir(cat->cfg, real))) {
		close(fd);
		return refuse(GP_WIRE_DENIED, msg, cap, "the index file %s is not under the server's allowed directories%s", path, "");
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0) {
		close(fd);
		return refuse(GP_EVALUE, msg, cap, "the index file %s is %s", real, S_ISREG(sb.st_mode) ? "empty" : "not a regular file");
	}
	const int64_t mtime = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	pthread_mutex_lock(&cat->lock);
	gpd_index *held = NULL;
	for (uint32_t i = 0; i < cat->n_slots; i++) {
		gpd_index *x = cat->slot[i];
		if (!x || x->retired || strcmp(x->path, real) != 0) continue;
		if (x->dev == (uint64_t)sb.st_dev && x->ino == (uint64_t)sb.st_ino && x->size == (uint64_t)sb.st_size && x->mtime_ns == mtime) {
			held = x;
		} else {
			x->retired = 1;   /* the file under this path changed */
			if (atomic_load(&x->refs) == 0) {
				cat->slot[i] = NULL;
				index_free(x);
			}
		}
	}
	if (held) {
		atomic_fetch_add(&held->refs, 1);
		pthread_mutex_unlock(&cat->lock);
		close(fd);
		int rc = GP_OK;
		gp_error err;
		if ((flags & GP_WIRE_OPEN_VERIFY) && gp_index_verify(held->ix, &err) != GP_OK) {
			gpd_catalog_put(cat, held);
			snprintf(msg, cap, "index file %s: byte %zu: %s", real, err.offset, err.rule);
			return GP_EFORMAT;
		}
		*out = held;
		return rc;
	}
	int at = free_slot(cat);
	pthread_mutex_unlock(&cat->lock);
	if (at < 0) {
		close(fd);
		char n[24];
		snprintf(n, sizeof(n), "%u", cat->cfg->max_indexes);
		return refuse(GP_WIRE_BUSY, msg, cap, "the server holds its max_indexes (%s) indexes%s", n, "");
	}
	gp_error err;
	gp_index *ix = NULL;
	const uint8_t *m = gp_index_map_file(fd, (size_t)sb.st_size, &err);
	close(fd);
	if (!m) return refuse(GP_EVALUE, msg, cap, "cannot map the index file %s: %s", real, err.rule);
	int rc = gp_index_load_mapped(m, (size_t)sb.st_size, &ctx->budget, &ix, &err);
	if (rc != GP_OK) gp_index_unmap_file(m, (size_t)sb.st_size);
	if (rc == GP_OK && (flags & GP_WIRE_OPEN_VERIFY) && (rc = gp_index_verify(ix, &err)) != GP_OK) gp_index_unref(ix);
	if (rc != GP_OK) {
		if (rc == GP_EFORMAT) snprintf(msg, cap, "index file %s: byte %zu: %s", real, err.offset, err.rule);
		else snprintf(msg, cap, "index file %s: %s", real, err.rule);
		return rc;
	}
	gpd_index *x = calloc(1, sizeof(*x));
	if (!x) {
		gp_index_unref(ix);
		return refuse(GP_ENOMEM, msg, cap, "no memory for the index %s%s", real, "");
	}
	x->ix = ix;
	snprintf(x->path, sizeof(x->path), "%s", real);
	x->dev = (uint64_t)sb.st_dev;
	x->ino = (uint64_t)sb.st_ino;
	x->size = (uint64_t)sb.st_size;
	x->mtime_ns = mtime;
	/* the device copy made now, before any thread queries it: the host threads then read lists
	 * that no later upload changes */
	if (device) {
		gp_index_prepare(ix, GP_PLACE_DEVICE, ctx, NULL);
		x->on_device = ix->device != NULL;
		if (!x->on_device) {
			gpd_log("%s: no device copy (%s): the host threads answer its queries", real,
			        ix->device_refused ? "past the device's offsets or max_index_bytes" : "the device failed");
		}
	}
	atomic_store(&x->refs, 1);
	atomic_store(&x->last_used, (uint64_t)gpd_now_ns());
	pthread_mutex_lock(&cat->lock);
	/* another client may have opened the same file meanwhile: one copy is kept */
	for (uint32_t i = 0; i < cat->n_slots; i++) {
		gpd_index *y = cat->slot[i];
		if (y && !y->retired && strcmp(y->path, real) == 0 && y->ino == x->ino && y->mtime_ns == x->mtime_ns && y->size == x->size) {
			atomic_fetch_add(&y->refs, 1);
			pthread_mutex_unlock(&cat->lock);
			index_free(x);
			*out = y;
			return GP_OK;
		}
	}
	if (cat->slot[at]) at = free_slot(cat);
	if (at < 0) {
		pthread_mutex_unlock(&cat->lock);
		index_free(x);
		char n[24];
		snprintf(n, sizeof(n), "%u", cat->cfg->max_indexes);
		return refuse(GP_WIRE_BUSY, msg, cap, "the server holds its max_indexes (%s) indexes%s", n, "");
	}
	/* a handle names its slot and the slot's use: a client's handle of an index since freed
	 * never reaches the index opened in its place */
	cat->uses = (cat->uses + 1) & (UINT32_MAX >> HANDLE_SLOT_BITS);
	x->handle = cat->uses << HANDLE_SLOT_BITS | ((uint32_t)at + 1);
	cat->slot[at] = x;
	pthread_mutex_unlock(&cat->lock);
	gpd_log("opened %s as handle %u (%llu docs, %u terms%s)", real, x->handle, (unsigned long long)ix->n_docs,
	        ix->n_terms, x->on_device ? ", on the device" : "");
	*out = x;
	return GP_OK;
}

gpd_index *gpd_catalog_get(gpd_catalog *cat, uint32_t handle)
{
	gpd_index *x = NULL;
	const uint32_t at = (handle & ((1u << HANDLE_SLOT_BITS) - 1)) - 1;
	pthread_mutex_lock(&cat->lock);
	if (at < cat->n_slots && cat->slot[at] && cat->slot[at]->handle == handle && !cat->slot[at]->retired) {
		x = cat->slot[at];
		atomic_fetch_add(&x->refs, 1);
	}
	pthread_mutex_unlock(&cat->lock);
	return x;
}

void gpd_catalog_put(gpd_catalog *cat, gpd_index *x)
{
	if (!x) return;
	atomic_store(&x->last_used, (uint64_t)gpd_now_ns());
	if (atomic_fetch_sub(&x->refs, 1) != 1 || !x->retired) return;
	/* a retired copy (its file replaced) goes with its last query: its memory, its device copy
	 * and the replaced file's blocks are not kept until a slot is needed */
	pthread_mutex_lock(&cat->lock);
	const uint32_t at = (x->handle & ((1u << HANDLE_SLOT_BITS) - 1)) - 1;
	if (at < cat->n_slots && cat->slot[at] == x && atomic_load(&x->refs) == 0) {
		cat->slot[at] = NULL;
		index_free(x);
	}
	pthread_mutex_unlock(&cat->lock);
}
