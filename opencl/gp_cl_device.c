/* Platform and device choice (the device spec the face passes), the per-process state and its
 * fork safety, what the device is and why it is not used, recovery after a failure, and
 * shutdown. */
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "gp_cl_runtime.h"
#include "../codec/gp_pool.h"

gp_cl_runtime gp_cl_devices[GP_CL_MAX_DEVICES] = {[0 ... GP_CL_MAX_DEVICES - 1] = {.state = GP_CL_UNOPENED}};
_Thread_local gp_cl_runtime *gp_cl_current = &gp_cl_devices[0];

/* The set of devices the spec names, and what this process took of it: all of them
 * (the face's "every device" setting) or one, picked by a ticket (gp_cl_ticket). The devices used are
 * gp_cl_devices[0 .. n). */
static struct {
	int state;
	pid_t pid;
	char spec[64];
	int all;
	size_t n;               /* devices this process uses */
	size_t in_set;          /* devices the spec matched */
	unsigned long ticket;   /* spread: this process's ticket (its device: ticket % in_set) */
	char rule[160];         /* how the devices were picked, for gpu_info() */
} gp_cl_set = {.state = GP_CL_UNOPENED, .spec = "auto"};

/* How the face names the settings that pick the devices, in messages (gp_cl_option_names; a
 * face that sets none: these). */
static const char *gp_cl_device_option = "device", *gp_cl_every_option = "every device";

void gp_cl_option_names(const char *device, const char *every)
{
	gp_cl_device_option = device;
	gp_cl_every_option = every;
}

int gp_cl_own(void)
{
	return gp_cl.state == GP_CL_READY && gp_cl.pid == gp_self_pid();
}

static const char *gp_cl_status_name(cl_int s)
{
	switch (s) {
	case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
	case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
	case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
	case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
	case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
	case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
	case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
	case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
	case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
	case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
	case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
	case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
	default: return "CL error";
	}
}

int gp_cl_fail(gp_error *err, cl_int status, const char *what)
{
	snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "%s failed: %s (%d)", what,
	         gp_cl_status_name(status), (int)status);
	if (err) {
		err->code = GP_EDEVICE;
		err->format = "OpenCL";
		err->offset = 0;
		err->cl_status = (int)status;
		snprintf(err->rule, sizeof(err->rule), "%.190s", gp_cl.last_error);
	}
	return GP_EDEVICE;
}


static void gp_cl_unusable(const char *why)
{
	gp_cl_set.state = gp_cl.state = GP_CL_UNUSABLE;
	gp_cl.pid = gp_self_pid();
	snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "%s", why);
}

static void gp_cl_fill_info(int pi, int di)
{
	gp_device_info *in = &gp_cl.info;
	cl_device_type type = 0;
	cl_uint cu = 0;
	cl_ulong mem = 0, alloc = 0;
	size_t wg = 0;
	memset(in, 0, sizeof(*in));
	clGetPlatformInfo(gp_cl.platform, CL_PLATFORM_NAME, sizeof(in->platform) - 1, in->platform, NULL);
	clGetPlatformInfo(gp_cl.platform, CL_PLATFORM_VERSION, sizeof(in->platform_version) - 1,
	                  in->platform_version, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_NAME, sizeof(in->device) - 1, in->device, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_VENDOR, sizeof(in->vendor) - 1, in->vendor, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_VERSION, sizeof(in->version) - 1, in->version, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(mem), &mem, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(alloc), &alloc, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
	in->type = (type & CL_DEVICE_TYPE_GPU) ? "gpu" : (type & CL_DEVICE_TYPE_CPU) ? "cpu" :
	           (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";
	in->compute_units = cu;
	in->global_mem = mem;
	in->max_alloc = alloc;
	in->max_work_group = wg;
	cl_device_fp_config fp = 0;
	in->fp64 = clGetDeviceInfo(gp_cl.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp), &fp, NULL) == CL_SUCCESS && fp != 0;
	in->platform_index = pi;
	in->device_index = di;
}

/* One device the spec matched. */
typedef struct gp_cl_candidate {
	cl_platform_id platform;
	cl_device_id device;
	int p, d;
} gp_cl_candidate;

int gp_cl_spec_parse(const char *value, gp_cl_spec *spec)
{
	static const struct { const char *name; int kind, every; } named[] = {
		{"auto", GP_CL_SPEC_AUTO, 0}, {"gpu", GP_CL_SPEC_GPU, 0}, {"cpu", GP_CL_SPEC_CPU, 0},
		{"host", GP_CL_SPEC_HOST, 0}, {"gpu:all", GP_CL_SPEC_GPU, 1}, {"cpu:all", GP_CL_SPEC_CPU, 1},
		{"all", GP_CL_SPEC_ANY, 1},
	};
	memset(spec, 0, sizeof(*spec));
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (strcmp(value, named[i].name) == 0) {
			spec->kind = named[i].kind;
			spec->every = named[i].every;
			return 1;
		}
	}
	spec->kind = GP_CL_SPEC_LIST;
	while (*value) {   /* P:D, or a list of them */
		int p, d, used = 0;
		if (spec->n == GP_CL_SPEC_MAX || sscanf(value, "%d:%d%n", &p, &d, &used) != 2 || p < 0 || d < 0 ||
		    (value[used] != '\0' && (value[used] != ',' || value[used + 1] == '\0'))) {
			return 0;
		}
		spec->platform[spec->n] = p;
		spec->device[spec->n++] = d;
		value += used + (value[used] == ',');
	}
	return spec->n > 0;
}

/* The devices the spec names (at most max), in the order named or found; 0 with
 * last_error set when none. */
static size_t gp_cl_match(const char *value, gp_cl_candidate *out, size_t max)
{
	cl_platform_id platforms[16];
	cl_uint np = 0;
	size_t found = 0;
	gp_cl_spec spec;
	if (!gp_cl_spec_parse(value, &spec)) {
		snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
		         "%s=\"%s\" is not auto, gpu, cpu, host, P:D, gpu:all, cpu:all, all or a "
		         "list of P:D", gp_cl_device_option, value);
		return 0;
	}
	cl_device_type want = spec.kind == GP_CL_SPEC_GPU ? CL_DEVICE_TYPE_GPU :
	                      spec.kind == GP_CL_SPEC_CPU ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_ALL;
	int passes = spec.kind == GP_CL_SPEC_AUTO ? 2 : 1;   /* auto: a GPU on any platform first */
	if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
		snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "no OpenCL platform found");
		return 0;
	}
	if (spec.kind == GP_CL_SPEC_LIST) {   /* each named device, in the order named */
		for (size_t w = 0; w < spec.n && found < max; w++) {
			cl_device_id devices[16];
			cl_uint nd = 0;
			int p = spec.platform[w], d = spec.device[w];
			if (p >= (int)np || p >= 16 || clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS ||
			    d >= (int)nd || d >= 16) {
				if (spec.n == 1) {
					snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
					         "no OpenCL device matches %s=\"%s\"", gp_cl_device_option, value);
				} else {
					snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
					         "no OpenCL device %d:%d (%s=\"%s\")", p, d, gp_cl_device_option, value);
				}
				return 0;
			}
			out[found++] = (gp_cl_candidate){platforms[p], devices[d], p, d};
		}
		return found;
	}
	for (int pass = 0; pass < passes && found == 0; pass++) {
		cl_device_type type = passes == 2 ? (pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL) : want;
		for (cl_uint p = 0; p < np && p < 16; p++) {
			cl_device_id devices[16];
			cl_uint nd = 0;
			if (clGetDeviceIDs(platforms[p], type, 16, devices, &nd) != CL_SUCCESS) continue;
			for (cl_uint d = 0; d < nd && d < 16 && found < max; d++) {
				out[found++] = (gp_cl_candidate){platforms[p], devices[d], (int)p, (int)d};
				if (!spec.every) return found;
			}
		}
	}
	if (found == 0) {
		snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
		         "no OpenCL device matches %s=\"%s\"", gp_cl_device_option, value);
	}
	return found;
}

/* A number that grows by one each time a process takes it: the file GPUPOST_DEVICE_TICKET names
 * (by default /dev/shm/gpupost-device-ticket.UID, else under /tmp), read and rewritten under
 * flock. The worker processes of a pool open the device on their first call, each taking the
 * next ticket, so that worker k uses device k % n: an even spread whatever their pids. The pid
 * when the file cannot be used. */
static unsigned long gp_cl_ticket(void)
{
	char path[256];
	const char *named = getenv("GPUPOST_DEVICE_TICKET");
	if (named && *named) {
		snprintf(path, sizeof(path), "%s", named);
	} else {
		snprintf(path, sizeof(path), "%s/gpupost-device-ticket.%u",
		         access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (unsigned)getuid());
	}
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) return (unsigned long)gp_self_pid();
	unsigned long t = (unsigned long)gp_self_pid();
	if (flock(fd, LOCK_EX) == 0) {
		char buf[32] = "";
		ssize_t got = pread(fd, buf, sizeof(buf) - 1, 0);
		t = got > 0 ? strtoul(buf, NULL, 10) : 0;
		int len = snprintf(buf, sizeof(buf), "%020lu\n", t + 1);
		if (pwrite(fd, buf, (size_t)len, 0) != len) t = (unsigned long)gp_self_pid();
		flock(fd, LOCK_UN);
	}
	close(fd);
	return t;
}

static void gp_cl_close_device(void);

/* Opens candidate c as device slot `slot`: its info, context, queue, program and kernels.
 * 1 when it can be used. */
static int gp_cl_open_device(size_t slot, const gp_cl_candidate *c)
{
	gp_cl_runtime *was = gp_cl_current;
	gp_cl_current = &gp_cl_devices[slot];
	gp_cl.pid = gp_self_pid();
	gp_cl.platform = c->platform;
	gp_cl.device = c->device;
	gp_cl.speed = 0;
	gp_cl_fill_info(c->p, c->d);
	int ok = gp_cl_build() == GP_OK;
	if (!ok) gp_cl_close_device();   /* what was made before the failure (last_error stays) */
	gp_cl.state = ok ? GP_CL_READY : GP_CL_UNUSABLE;
	gp_cl_current = was;
	return ok;
}

/* Forgets a parent's devices in a forked child (their contexts are not ours to use or
 * release: a driver can hang on them). */
static void gp_cl_forget_parent(void)
{
	for (size_t d = 0; d < GP_CL_MAX_DEVICES; d++) {
		gp_cl_runtime *rt = &gp_cl_devices[d];
		if (rt->state == GP_CL_READY) {
			rt->state = GP_CL_UNUSABLE;
			rt->built = 0;
			memset(rt->buffers, 0, sizeof(rt->buffers));
			rt->mapped = NULL;
			rt->mapped_mem = NULL;
			rt->call_pending = 0;
		}
		rt->pid = gp_self_pid();
	}
}

int gp_cl_available(const char *device_spec, int all_devices)
{
	if (gp_cl_set.state != GP_CL_UNOPENED && gp_cl_set.pid != gp_self_pid()) {
		if (gp_cl_set.state == GP_CL_READY) {
			gp_cl_forget_parent();
			gp_cl_current = &gp_cl_devices[0];
			snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
			         "process %d forked after process %d opened the device: the host path "
			         "serves this process", (int)gp_self_pid(), (int)gp_cl_set.pid);
			gp_cl_set.state = GP_CL_UNUSABLE;
			gp_cl_set.pid = gp_self_pid();
			gp_cl_set.n = 0;
			return 0;
		}
		gp_cl_set.state = GP_CL_UNOPENED; /* never opened by the parent: this process may */
	}
	if (gp_cl_set.state == GP_CL_READY) return 1;
	if (gp_cl_set.state == GP_CL_UNUSABLE) return 0;
	gp_cl_set.pid = gp_self_pid();
	gp_cl_set.all = all_devices;
	snprintf(gp_cl_set.spec, sizeof(gp_cl_set.spec), "%s", device_spec ? device_spec : "auto");
	gp_cl_spec parsed;
	if (gp_cl_spec_parse(gp_cl_set.spec, &parsed) && parsed.kind == GP_CL_SPEC_HOST) {
		char why[128];
		snprintf(why, sizeof(why), "%s=host: OpenCL is not used", gp_cl_device_option);
		gp_cl_unusable(why);
		return 0;
	}
	gp_cl_candidate found[GP_CL_MAX_DEVICES];
	gp_cl.pid = gp_self_pid();
	size_t n = gp_cl_match(gp_cl_set.spec, found, GP_CL_MAX_DEVICES);
	gp_cl_set.in_set = n;
	gp_cl_set.state = GP_CL_UNUSABLE;
	if (n == 0) return 0;
	if (n == 1 || all_devices) {
		if (n == 1) snprintf(gp_cl_set.rule, sizeof(gp_cl_set.rule), "the one device %s names", gp_cl_device_option);
		else snprintf(gp_cl_set.rule, sizeof(gp_cl_set.rule), "all %zu devices %s names (%s)", n, gp_cl_device_option, gp_cl_every_option);
		for (size_t i = 0; i < n; i++) {
			/* a device that does not build is left out; the others serve */
			if (gp_cl_open_device(gp_cl_set.n, &found[i])) gp_cl_set.n++;
		}
	} else {
		gp_cl_set.ticket = gp_cl_ticket();
		size_t pick = (size_t)(gp_cl_set.ticket % n);
		snprintf(gp_cl_set.rule, sizeof(gp_cl_set.rule),
		         "spread: ticket %lu, device %zu of the %zu %s names (ticket %% %zu)",
		         gp_cl_set.ticket, pick, n, gp_cl_device_option, n);
		if (gp_cl_open_device(0, &found[pick])) gp_cl_set.n = 1;
	}
	gp_cl_current = &gp_cl_devices[0];
	if (gp_cl_set.n == 0) return 0;
	gp_cl_set.state = GP_CL_READY;
	return 1;
}

size_t gp_cl_device_count(void)
{
	return gp_cl_set.state == GP_CL_READY && gp_cl_set.pid == gp_self_pid() ? gp_cl_set.n : 0;
}

size_t gp_cl_devices_in_set(void)
{
	return gp_cl_set.pid == gp_self_pid() ? gp_cl_set.in_set : 0;
}

const char *gp_cl_device_rule(void)
{
	return gp_cl_set.pid == gp_self_pid() ? gp_cl_set.rule : "";
}

void gp_cl_select(size_t d)
{
	gp_cl_current = &gp_cl_devices[d < GP_CL_MAX_DEVICES ? d : 0];
}

size_t gp_cl_selected(void)
{
	return (size_t)(gp_cl_current - gp_cl_devices);
}

const gp_device_info *gp_cl_info_of(size_t d)
{
	return d < gp_cl_device_count() ? &gp_cl_devices[d].info : NULL;
}

size_t gp_cl_physical(size_t d)
{
	size_t n = gp_cl_device_count();
	if (d >= n) return d;
	const gp_cl_runtime *rd = &gp_cl_devices[d];
	for (size_t e = 0; e < d; e++) {
		const gp_cl_runtime *re = &gp_cl_devices[e];
		if (re->device == rd->device) return e;
		/* CPU devices of one platform (PoCL's POCL_DEVICES) run on the same cores */
		if (re->platform == rd->platform && !strcmp(re->info.type, "cpu") && !strcmp(rd->info.type, "cpu")) return e;
	}
	return d;
}

double gp_cl_speed(size_t d)
{
	return d < GP_CL_MAX_DEVICES ? gp_cl_devices[d].speed : 0;
}

void gp_cl_speed_note(size_t d, double bytes, double seconds)
{
	if (d >= GP_CL_MAX_DEVICES || seconds <= 0 || bytes <= 0) return;
	double now = bytes / seconds, *s = &gp_cl_devices[d].speed;
	*s = *s > 0 ? 0.75 * *s + 0.25 * now : now;   /* a moving average: one slow call moves it a quarter */
}

const gp_device_info *gp_cl_info(void)
{
	return gp_cl.device && gp_cl.pid == gp_self_pid() && gp_cl_set.pid == gp_self_pid() ? &gp_cl.info : NULL;
}

int gp_cl_program_built(void)
{
	return gp_cl.built && gp_cl.pid == gp_self_pid();
}

const char *gp_cl_last_error(void)
{
	return gp_cl.last_error;
}

int gp_cl_shape_of(gp_device_shape *shape)
{
	if (!gp_cl_program_built()) return 0;
	*shape = gp_cl.shape;
	return 1;
}

void gp_cl_recover(int cl_status)
{
	if (gp_cl.state != GP_CL_READY || gp_cl.pid != gp_self_pid()) return;
	clFinish(gp_cl.queue);
	if (cl_status == CL_MEM_OBJECT_ALLOCATION_FAILURE || cl_status == CL_OUT_OF_RESOURCES ||
	    cl_status == CL_OUT_OF_HOST_MEMORY || cl_status == CL_INVALID_BUFFER_SIZE) {
		gp_cl_release_buffers();
	}
}

/* Releases one device's kernels, buffers, program, queue and context. */
static void gp_cl_close_device(void)
{
	/* the kernels first: a driver may hold the buffers their arguments name until then */
	for (int k = 0; k < GP_K_COUNT; k++) {
		if (gp_cl.kernels[k]) clReleaseKernel(gp_cl.kernels[k]);
		gp_cl.kernels[k] = NULL;
		gp_cl.memos[k].valid = 0;
	}
	gp_cl_release_buffers();
	if (gp_cl.program) clReleaseProgram(gp_cl.program);
	if (gp_cl.queue) clReleaseCommandQueue(gp_cl.queue);
	if (gp_cl.context) clReleaseContext(gp_cl.context);
	gp_cl.program = NULL;
	gp_cl.queue = NULL;
	gp_cl.context = NULL;
	gp_cl.built = 0;
	gp_cl.state = GP_CL_UNOPENED;
}

void gp_cl_shutdown(void)
{
	gp_pool_shutdown();
	if (gp_cl_set.pid != gp_self_pid() || gp_cl_set.state != GP_CL_READY) return;
	for (size_t d = 0; d < gp_cl_set.n; d++) {
		gp_cl_current = &gp_cl_devices[d];
		if (gp_cl_own()) gp_cl_close_device();
	}
	gp_cl_current = &gp_cl_devices[0];
	gp_cl_set.state = GP_CL_UNOPENED;
	gp_cl_set.n = 0;
}

cl_command_queue gp_cl_queue(void) { return gp_cl.queue; }
cl_kernel gp_cl_kernel(gp_kernel_id id) { return gp_cl.kernels[id]; }
