/* LD_PRELOAD shim for scripts/sanitize.sh: PHP loads extensions with RTLD_DEEPBIND, which the
 * sanitizer runtimes refuse (google/sanitizers#611); this dlopen drops that flag and passes the
 * call on. Used only to run the test suite against an ASan/UBSan build. */
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *file, int mode)
{
	static void *(*next)(const char *, int);
	if (!next) next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	return next(file, mode & ~RTLD_DEEPBIND);
}
