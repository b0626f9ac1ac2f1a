/* The worker's side of gpupostd (docs/SERVER.md, "The PHP face"): gpupost.server names the
 * server's socket; the process keeps one connection across requests (made at its first use,
 * after any fork; under thread-safe PHP the extension's lock makes it one caller at a time). A
 * connection that fails is not tried again for a second, so that a server that is down costs a
 * request one failed connect a second at most, not one each. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <time.h>
#include <unistd.h>

#include "php.h"
#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "net/gp_client.h"

#define RETRY_AFTER_MS 1000

static struct {
	gp_client c;
	pid_t pid;                /* the process that connected (a fork's child starts afresh) */
	uint64_t epoch;           /* connections made: a handle belongs to the one it was opened on */
	int64_t retry_at_ms;
	char why[256];            /* why the last connection failed */
} link_ = {.c = {.fd = -1}};

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

const char *gpupost_server_socket(void)
{
	const char *s = GPUPOST_G(server);
	if (!s || !s[0]) return NULL;
	return strncmp(s, "unix:", 5) == 0 ? s + 5 : s;
}

gp_client *gpupost_server_client(uint64_t *epoch)
{
	const char *socket = gpupost_server_socket();
	if (!socket) return NULL;
	if (link_.pid != getpid() && link_.c.fd >= 0) {
		/* a fork's copy of the parent's connection: the parent's to use, never this child's
		 * (closing the copy leaves the parent's open) */
		gp_client_close(&link_.c);
	}
	if (!gp_client_connected(&link_.c)) {
		if (now_ms() < link_.retry_at_ms) return NULL;
		gp_error err;
		char name[64];
		snprintf(name, sizeof(name), "php %s pid %ld", PHP_VERSION, (long)getpid());
		if (gp_client_connect(&link_.c, socket, name, (int)GPUPOST_G(server_timeout), &err) != GP_OK) {
			snprintf(link_.why, sizeof(link_.why), "%s", err.rule);
			link_.retry_at_ms = now_ms() + RETRY_AFTER_MS;
			return NULL;
		}
		link_.pid = getpid();
		link_.epoch++;
		link_.why[0] = '\0';
	}
	*epoch = link_.epoch;
	return &link_.c;
}

void gpupost_server_failed(const gp_error *err)
{
	snprintf(link_.why, sizeof(link_.why), "%s", err->rule);
	if (!gp_client_connected(&link_.c)) link_.retry_at_ms = now_ms() + RETRY_AFTER_MS;
}

const char *gpupost_server_why(void)
{
	return link_.why[0] ? link_.why : "not connected";
}

void gpupost_server_shutdown(void)
{
	if (link_.pid == getpid()) gp_client_close(&link_.c);
}

/* gpu_info()['server']: the socket, whether this process is connected, why not, and the
 * server's statistics ("name value" lines as ints; its indexes as arrays). */
void gpupost_server_info(zval *rv)
{
	const char *socket = gpupost_server_socket();
	array_init(rv);
	add_assoc_string(rv, "socket", (char *)(socket ? socket : ""));
	uint64_t epoch;
	gp_client *c = socket ? gpupost_server_client(&epoch) : NULL;
	char *text = NULL;
	gp_error err;
	if (c && gp_client_stats(c, &text, &err) != GP_OK) {
		gpupost_server_failed(&err);
		c = NULL;
	}
	add_assoc_bool(rv, "connected", c != NULL);
	add_assoc_string(rv, "error", (char *)(c ? "" : socket ? gpupost_server_why() : "gpupost.server is not set"));
	if (!text) return;
	zval stats, indexes;
	array_init(&stats);
	array_init(&indexes);
	for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *value = strchr(line, ' ');
		if (!value) continue;
		*value++ = '\0';
		if (strcmp(line, "index") != 0) {
			add_assoc_long(&stats, line, (zend_long)strtoull(value, NULL, 10));
			continue;
		}
		/* "index HANDLE name=value ... path=PATH" (the path last: it may hold spaces) */
		zval ix;
		array_init(&ix);
		add_assoc_long(&ix, "handle", (zend_long)strtoull(value, &value, 10));
		while (*value == ' ') {
			char *name = value + 1, *eq = strchr(name, '=');
			if (!eq) break;
			*eq = '\0';
			if (strcmp(name, "path") == 0) {
				add_assoc_string(&ix, "path", eq + 1);
				break;
			}
			add_assoc_long(&ix, name, (zend_long)strtoull(eq + 1, &value, 10));
		}
		add_next_index_zval(&indexes, &ix);
	}
	add_assoc_zval(rv, "stats", &stats);
	add_assoc_zval(rv, "indexes", &indexes);
	free(text);
}
