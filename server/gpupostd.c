/* gpupostd: the device server (docs/SERVER.md). One process per host holds each index once and
 * batches every client's device-bound queries.
 *
 *   gpupostd [--config FILE] [--set NAME=VALUE]... [--foreground]   serve
 *   gpupostd [--config FILE] [--socket PATH] --stats                the statistics of a running one
 *   gpupostd [--config FILE] --check                                the configuration checked
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpd_server.h"
#include "../net/gp_client.h"

#define DEFAULT_CONFIG "/etc/gpupost/gpupostd.conf"

static int usage(int status)
{
	fprintf(status ? stderr : stdout,
	        "usage: gpupostd [--config FILE] [--set NAME=VALUE]... [--foreground]\n"
	        "       gpupostd [--config FILE] [--socket PATH] --stats\n"
	        "       gpupostd [--config FILE] [--set NAME=VALUE]... --check\n"
	        "The configuration file (default " DEFAULT_CONFIG ") holds \"name value\" lines;\n"
	        "--set gives one more after it. docs/SERVER.md lists the settings.\n");
	return status;
}

/* Leaves the terminal: a child of a child in its own session, its output to syslog. */
static int daemonize(void)
{
	pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid > 0) _exit(0);
	if (setsid() < 0) return -1;
	if ((pid = fork()) < 0) return -1;
	if (pid > 0) _exit(0);
	if (chdir("/") != 0) return -1;
	int fd = open("/dev/null", O_RDWR);
	if (fd < 0) return -1;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2) close(fd);
	gpd_log_to_syslog();
	return 0;
}

static int stats(const char *socket_path)
{
	gp_client c;
	gp_error err;
	char *text;
	if (gp_client_connect(&c, socket_path, "gpupostd --stats", 5000, &err) != GP_OK ||
	    gp_client_stats(&c, &text, &err) != GP_OK) {
		fprintf(stderr, "gpupostd: %s\n", err.rule);
		gp_client_close(&c);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	gp_client_close(&c);
	return 0;
}

int main(int argc, char **argv)
{
	const char *config = NULL, *socket_path = NULL;
	int foreground = 0, want_stats = 0, check = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) config = argv[++i];
		else if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket_path = argv[++i];
		else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) i++;   /* read after the file */
		else if (strcmp(argv[i], "--foreground") == 0) foreground = 1;
		else if (strcmp(argv[i], "--stats") == 0) want_stats = 1;
		else if (strcmp(argv[i], "--check") == 0) check = 1;
		else if (strcmp(argv[i], "--help") == 0) return usage(0);
		else return usage(2);
	}
	struct stat sb;
	if (!config && stat(DEFAULT_CONFIG, &sb) == 0) config = DEFAULT_CONFIG;
	gpd_config cfg;
	char msg[1024];
	if (gpd_config_load(&cfg, config, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "gpupostd: %s\n", msg);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--set") != 0 || i + 1 >= argc) continue;
		char name[128];
		const char *eq = strchr(argv[++i], '=');
		if (!eq || (size_t)(eq - argv[i]) >= sizeof(name)) {
			fprintf(stderr, "gpupostd: --set %s: not NAME=VALUE\n", argv[i]);
			return 2;
		}
		memcpy(name, argv[i], (size_t)(eq - argv[i]));
		name[eq - argv[i]] = '\0';
		if (gpd_config_set(&cfg, name, eq + 1, msg, sizeof(msg)) != 0) {
			fprintf(stderr, "gpupostd: --set: %s\n", msg);
			return 2;
		}
	}
	if (socket_path) {   /* --socket: this socket, for --stats and for serving alike */
		if (socket_path[0] != '/' || strlen(socket_path) >= sizeof(cfg.socket)) {
			fprintf(stderr, "gpupostd: --socket %s: not an absolute path of at most 107 bytes\n", socket_path);
			return 2;
		}
		strcpy(cfg.socket, socket_path);
	}
	if (want_stats) {
		int rc = stats(cfg.socket);
		gpd_config_free(&cfg);
		return rc;
	}
	if (gpd_config_check(&cfg, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "gpupostd: %s%s%s\n", config ? config : "", config ? ": " : "", msg);
		gpd_config_free(&cfg);
		return 2;
	}
	if (check) {
		printf("gpupostd: the configuration is valid\n");
		gpd_config_free(&cfg);
		return 0;
	}
	if (!foreground && daemonize() != 0) {
		fprintf(stderr, "gpupostd: cannot become a daemon: %s\n", strerror(errno));
		return 1;
	}
	int rc = gpd_serve(&cfg);
	gp_shutdown();
	gpd_config_free(&cfg);
	return rc == 0 ? 0 : 1;
}
