/* gpupostd's configuration file (server/gpd_config.h): "name value" lines, '#' comments, sizes
 * with K, M or G. An unknown name or a value out of range stops the server at start, naming the
 * line: a typo never leaves a bound unset. */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpd_config.h"
#include "../net/gp_wire.h"

static int fail(char *msg, size_t cap, const char *fmt, const char *a, const char *b)
{
	snprintf(msg, cap, fmt, a, b);
	return -1;
}

/* An unsigned number with an optional K, M or G (powers of 1024) within [lo, hi]. */
static int number(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!isdigit((unsigned char)v[0])) return -1;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno) return -1;
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k') shift = 10;
	else if (*end == 'M' || *end == 'm') shift = 20;
	else if (*end == 'G' || *end == 'g') shift = 30;
	if (shift) end++;
	if (*end || n > (UINT64_MAX >> shift)) return -1;
	n <<= shift;
	if (n < lo || n > hi) return -1;
	*out = n;
	return 0;
}

/* A list of users or groups (names or numbers, commas or spaces between). */
static int ids(const char *v, int groups, gpd_config *c, char *msg, size_t cap)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *save, *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		uint64_t n;
		long id;
		if (number(tok, 0, UINT32_MAX - 1, &n) == 0) {
			id = (long)n;
		} else if (groups) {
			struct group *g = getgrnam(tok);
			if (!g) return fail(msg, cap, "no group %s%s", tok, "");
			id = (long)g->gr_gid;
		} else {
			struct passwd *p = getpwnam(tok);
			if (!p) return fail(msg, cap, "no user %s%s", tok, "");
			id = (long)p->pw_uid;
		}
		if ((groups ? c->n_gids : c->n_uids) == GPD_MAX_IDS) return fail(msg, cap, "more than 32 %s%s", groups ? "groups" : "users", "");
		if (groups) c->allow_gid[c->n_gids++] = (gid_t)id;
		else c->allow_uid[c->n_uids++] = (uid_t)id;
	}
	c->allow_any_peer = 0;
	return 0;
}

typedef struct size_setting {
	const char *name;
	size_t offset, size;      /* of the field, and its width (4 or 8 bytes) */
	uint64_t lo, hi;
} size_setting;

#define FIELD(f) offsetof(gpd_config, f), sizeof(((gpd_config *)0)->f)
static const size_setting sizes[] = {
	{"host_threads", FIELD(host_threads), 1, 1024},
	{"host_max_work", FIELD(host_max_work), 0, UINT64_MAX >> 1},
	{"host_inline_work", FIELD(host_inline_work), 0, UINT64_MAX >> 1},
	{"io_threads", FIELD(io_threads), 1, 256},
	{"max_connections", FIELD(max_connections), 1, 1000000},
	{"max_payload", FIELD(max_payload), GP_WIRE_MIN_PAYLOAD, GP_WIRE_MAX_PAYLOAD},
	{"max_batch_queries", FIELD(max_batch_queries), 1, 10000000},
	{"max_query_terms", FIELD(max_query_terms), 1, 1000000},
	{"max_queued_queries", FIELD(max_queued_queries), 1, UINT64_MAX >> 1},
	{"max_answer_bytes", FIELD(max_answer_bytes), 4096, UINT64_MAX >> 1},
	{"max_index_bytes", FIELD(max_index_bytes), 0, UINT64_MAX >> 1},
	{"max_indexes", FIELD(max_indexes), 1, 4096},
	{"idle_timeout", FIELD(idle_timeout_s), 1, 86400 * 365},
	{"io_timeout", FIELD(io_timeout_s), 1, 86400},
	{"min_device_values", FIELD(min_device_values), 0, LONG_MAX},
};

int gpd_config_set(gpd_config *c, const char *name, const char *v, char *msg, size_t cap)
{
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (strcmp(name, sizes[i].name) != 0) continue;
		uint64_t n;
		if (number(v, sizes[i].lo, sizes[i].hi, &n) != 0) return fail(msg, cap, "%s: %s is not a number within its range", name, v);
		char *field = (char *)c + sizes[i].offset;
		if (sizes[i].size == 4) {
			uint32_t w = (uint32_t)n;
			memcpy(field, &w, 4);
		} else {
			memcpy(field, &n, 8);
		}
		return 0;
	}
	if (strcmp(name, "socket") == 0) {
		if (v[0] != '/' || strlen(v) >= sizeof(c->socket)) return fail(msg, cap, "socket: %s is not an absolute path of at most 107 bytes%s", v, "");
		strcpy(c->socket, v);
	} else if (strcmp(name, "socket_mode") == 0) {
		char *end;
		unsigned long m = strtoul(v, &end, 8);
		if (*end || !v[0] || m > 0777) return fail(msg, cap, "socket_mode: %s is not an octal mode%s", v, "");
		c->socket_mode = (unsigned)m;
	} else if (strcmp(name, "allow_dir") == 0) {
		char real[PATH_MAX];
		if (c->n_dirs == GPD_MAX_DIRS) return fail(msg, cap, "allow_dir: more than 16 directories%s%s", "", "");
		if (!realpath(v, real)) return fail(msg, cap, "allow_dir: %s: %s", v, strerror(errno));
		if (!(c->allow_dir[c->n_dirs] = strdup(real))) return fail(msg, cap, "no memory%s%s", "", "");
		c->n_dirs++;
	} else if (strcmp(name, "allow_users") == 0) {
		return ids(v, 0, c, msg, cap);
	} else if (strcmp(name, "allow_groups") == 0) {
		return ids(v, 1, c, msg, cap);
	} else if (strcmp(name, "device") == 0) {
		if (strlen(v) >= sizeof(c->device) || !gp_device_spec_valid(v)) return fail(msg, cap, "device: %s is not a device spec%s", v, "");
		strcpy(c->device, v);
	} else if (strcmp(name, "multi_device") == 0) {
		if (strcmp(v, "spread") != 0 && strcmp(v, "all") != 0) return fail(msg, cap, "multi_device: %s is not spread or all%s", v, "");
		c->device_all = strcmp(v, "all") == 0;
	} else if (strcmp(name, "placement") == 0) {
		if (strcmp(v, "auto") == 0) c->placement = GP_PLACE_AUTO;
		else if (strcmp(v, "device") == 0) c->placement = GP_PLACE_DEVICE;
		else if (strcmp(v, "host") == 0) c->placement = GP_PLACE_HOST;
		else return fail(msg, cap, "placement: %s is not auto, device or host%s", v, "");
	} else {
		return fail(msg, cap, "unknown setting %s%s", name, "");
	}
	return 0;
}

static void defaults(gpd_config *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->socket, "/run/gpupost/gpupost.sock");
	c->socket_mode = 0660;
	c->allow_any_peer = 1;
	strcpy(c->device, "auto");
	c->placement = GP_PLACE_AUTO;
	c->min_device_values = 1 << 20;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	c->host_threads = cores > 0 && cores < 1024 ? (unsigned)cores : 1;
	c->host_max_work = 16384;
	c->host_inline_work = 16384;
	c->io_threads = c->host_threads < 8 ? c->host_threads : 8;
	c->max_connections = 1024;
	c->max_payload = 16u << 20;
	c->max_batch_queries = 16384;
	c->max_query_terms = 256;
	c->max_queued_queries = 1u << 20;
	c->max_answer_bytes = 1ull << 30;
	c->max_indexes = 16;
	c->idle_timeout_s = 3600;
	c->io_timeout_s = 10;
}

int gpd_config_load(gpd_config *c, const char *path, char *msg, size_t cap)
{
	defaults(c);
	if (!path) return 0;
	FILE *f = fopen(path, "r");
	if (!f) return fail(msg, cap, "%s: %s", path, strerror(errno));
	struct stat sb;
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		fclose(f);
		return fail(msg, cap, "%s: %s", path, "not a regular file");
	}
	char line[4096];
	int number_of_line = 0;
	while (fgets(line, sizeof(line), f)) {
		number_of_line++;
		/* a line longer than the buffer is refused, never read as two */
		if (!strchr(line, '\n') && !feof(f)) {
			char where[64];
			snprintf(where, sizeof(where), "%d", number_of_line);
			fclose(f);
			return fail(msg, cap, "%s line %s: longer than 4095 bytes", path, where);
		}
		char *s = line, *hash = strchr(s, '#');
		if (hash) *hash = '\0';
		while (isspace((unsigned char)*s)) s++;
		size_t n = strlen(s);
		while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
		if (!n) continue;
		char *name = s, *value = s;
		while (*value && !isspace((unsigned char)*value) && *value != '=') value++;
		if (*value) *value++ = '\0';
		while (isspace((unsigned char)*value) || *value == '=') value++;
		char why[512];
		if (!*value || gpd_config_set(c, name, value, why, sizeof(why)) != 0) {
			char where[64];
			snprintf(where, sizeof(where), "%d", number_of_line);
			if (!*value) snprintf(why, sizeof(why), "%.200s has no value", name);
			snprintf(msg, cap, "%s line %s: %s", path, where, why);
			fclose(f);
			return -1;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) return fail(msg, cap, "%s: %s", path, "a read failed");
	return 0;
}

int gpd_config_check(const gpd_config *c, char *msg, size_t cap)
{
	if (c->n_dirs == 0) return fail(msg, cap, "no allow_dir: a server opens indexes only from directories it is given%s%s", "", "");
	return 0;
}

void gpd_config_free(gpd_config *c)
{
	for (size_t i = 0; i < c->n_dirs; i++) free(c->allow_dir[i]);
	c->n_dirs = 0;
}
