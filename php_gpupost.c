/* gpupost: PHP glue only (argument parsing, INI, phpinfo, exceptions, C results into PHP arrays),
 * in three files: this one (the module, INI, gpu_info, errors and the call's context),
 * php_gpupost_decode.c (the decoders) and php_gpupost_encode.c (the encoders). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <pthread.h>

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "zend_interfaces.h"

#include "php_gpupost.h"
#include "php_gpupost_glue.h"
#include "gpupost_arginfo.h"

ZEND_DECLARE_MODULE_GLOBALS(gpupost)

zend_class_entry *gpupost_exception_ce;

/* A non-negative integer in decimal, with a K, M or G suffix where `quantity` (as memory_limit
 * writes sizes); anything else (a sign, another base, junk, a value past ZEND_LONG_MAX) is
 * refused, so that a typo can never become a negative or wrapped limit. */
static bool parse_ini_count(const zend_string *value, bool quantity, zend_long *out)
{
	const char *p = ZSTR_VAL(value), *end = p + ZSTR_LEN(value);
	zend_ulong v = 0, scale = 1;
	if (p == end) return false;
	if (quantity) {
		switch (end[-1]) {
		case 'k': case 'K': scale = (zend_ulong)1 << 10; end--; break;
		case 'm': case 'M': scale = (zend_ulong)1 << 20; end--; break;
		case 'g': case 'G': scale = (zend_ulong)1 << 30; end--; break;
		}
	}
	if (p == end) return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9' || v > ((zend_ulong)ZEND_LONG_MAX - (zend_ulong)(*p - '0')) / 10) return false;
		v = v * 10 + (zend_ulong)(*p - '0');
	}
	if (v > (zend_ulong)ZEND_LONG_MAX / scale) return false;
	*out = (zend_long)(v * scale);
	return true;
}

/* The INI handler of a count or size: a value parse_ini_count refuses leaves the previous one
 * (at start-up, the default) in force, with a warning that says so. */
static int update_ini_count(zend_ini_entry *entry, zend_string *new_value, void *mh_arg1,
                            void *mh_arg2, bool quantity, zend_long min)
{
	zend_long v;
	if (!parse_ini_count(new_value, quantity, &v) || v < min) {
		php_error_docref(NULL, E_WARNING, "%s must be %s from " ZEND_LONG_FMT " to " ZEND_LONG_FMT
		                 ", \"%s\" given; the value in force stays", ZSTR_VAL(entry->name),
		                 quantity ? "a byte count (digits, optionally K, M or G)" : "a decimal integer",
		                 min, (zend_long)ZEND_LONG_MAX, ZSTR_VAL(new_value));
		return FAILURE;
	}
	*(zend_long *)ZEND_INI_GET_ADDR() = v;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateMinDeviceValues)
{
	return update_ini_count(entry, new_value, mh_arg1, mh_arg2, false, 0);
}

static ZEND_INI_MH(OnUpdateByteCap)
{
	return update_ini_count(entry, new_value, mh_arg1, mh_arg2, true, 1);
}

static ZEND_INI_MH(OnUpdateByteKeep)
{
	return update_ini_count(entry, new_value, mh_arg1, mh_arg2, true, 0);
}

/* An unknown value warns and stands for auto (device_spec() below): the device itself is opened
 * by the first call that needs it, after any fork. */
static ZEND_INI_MH(OnUpdateDevice)
{
	if (!gp_device_spec_valid(ZSTR_VAL(new_value))) {
		php_error_docref(NULL, E_WARNING, "gpupost.device must be auto, gpu, cpu, host, P:D, gpu:all, "
		                 "cpu:all, all or a list of P:D, \"%s\" given; using auto", ZSTR_VAL(new_value));
	}
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* gpupost.multi_device: what a process does with a set of devices. */
static ZEND_INI_MH(OnUpdateMultiDevice)
{
	if (strcmp(ZSTR_VAL(new_value), "spread") != 0 && strcmp(ZSTR_VAL(new_value), "all") != 0) {
		php_error_docref(NULL, E_WARNING, "gpupost.multi_device must be spread or all, \"%s\" given",
		                 ZSTR_VAL(new_value));
		return FAILURE;
	}
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* gpupost.server: empty, or gpupostd's Unix socket as unix:/path (or /path). */
static ZEND_INI_MH(OnUpdateServer)
{
	const char *v = ZSTR_VAL(new_value);
	const char *path = strncmp(v, "unix:", 5) == 0 ? v + 5 : v;
	if (v[0] && (path[0] != '/' || strlen(path) > 107)) {
		php_error_docref(NULL, E_WARNING, "gpupost.server must be empty or unix:/path/to/socket (an absolute path of at most 107 bytes), \"%s\" given", v);
		return FAILURE;
	}
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* gpupost.server_timeout: the longest wait, in milliseconds, for the server to take or give a
 * byte (1 to 600000). */
static ZEND_INI_MH(OnUpdateServerTimeout)
{
	zend_long ms = ZEND_STRTOL(ZSTR_VAL(new_value), NULL, 10);
	if (ms < 1 || ms > 600000) {
		php_error_docref(NULL, E_WARNING, "gpupost.server_timeout must be 1 to 600000 (milliseconds), \"%s\" given", ZSTR_VAL(new_value));
		return FAILURE;
	}
	return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* gpupost.multi_device=all: each process uses every device of gpupost.device's set. */
static int device_all(void)
{
	const char *v = GPUPOST_G(multi_device);
	return v && strcmp(v, "all") == 0;
}

/* gpupost.device as the calls pass it. */
static const char *device_spec(void)
{
	const char *v = GPUPOST_G(device);
	return v && gp_device_spec_valid(v) ? v : "auto";
}

PHP_INI_BEGIN()
	STD_PHP_INI_ENTRY("gpupost.device", "auto", PHP_INI_SYSTEM, OnUpdateDevice, device,
	                  zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.multi_device", "spread", PHP_INI_SYSTEM, OnUpdateMultiDevice, multi_device,
	                  zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.min_device_values", "40000", PHP_INI_ALL, OnUpdateMinDeviceValues,
	                  min_device_values, zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.max_result_bytes", "1G", PHP_INI_ALL, OnUpdateByteCap,
	                  max_result_bytes, zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.max_cached_bytes", "64M", PHP_INI_ALL, OnUpdateByteKeep,
	                  max_cached_bytes, zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.max_resident_bytes", "1G", PHP_INI_SYSTEM, OnUpdateByteKeep,
	                  max_resident_bytes, zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.server", "", PHP_INI_SYSTEM, OnUpdateServer, server,
	                  zend_gpupost_globals, gpupost_globals)
	STD_PHP_INI_ENTRY("gpupost.server_timeout", "5000", PHP_INI_SYSTEM, OnUpdateServerTimeout,
	                  server_timeout, zend_gpupost_globals, gpupost_globals)
PHP_INI_END()


/* --- errors --- */

void gpupost_throw(const gp_error *err, const zval *key)
{
	if (err->code == GP_ENOMEM) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s", err->rule);
	} else if (err->code == GP_EDEVICE) {
		zend_throw_exception_ex(gpupost_exception_ce, err->cl_status, "OpenCL: %s", err->rule);
	} else if (key && Z_TYPE_P(key) == IS_STRING) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: blob '%s', byte %zu: %s",
		                        err->format, Z_STRVAL_P(key), err->offset, err->rule);
	} else if (key) {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: blob " ZEND_LONG_FMT ", byte %zu: %s",
		                        err->format, Z_LVAL_P(key), err->offset, err->rule);
	} else {
		zend_throw_exception_ex(gpupost_exception_ce, 0, "%s: byte %zu: %s", err->format,
		                        err->offset, err->rule);
	}
}

/* Throws for err, naming the key of the blob it happened in. */
void throw_for_blob(const gp_error *err, HashTable *keys)
{
	size_t i = 0;
	zend_string *skey;
	zend_ulong ikey;
	zval kz;
	ZEND_HASH_FOREACH_KEY(keys, ikey, skey) {
		if (i++ == err->blob) {
			if (skey) ZVAL_STR(&kz, skey); else ZVAL_LONG(&kz, (zend_long)ikey);
			gpupost_throw(err, &kz);
			return;
		}
	} ZEND_HASH_FOREACH_END();
	gpupost_throw(err, NULL);
}

bool check_format_mode(zend_long format, zend_long mode, uint32_t format_arg, uint32_t mode_arg)
{
	if (format < GP_FORMAT_MOD9 || format > GP_FORMAT_GROUP_VARINT) {
		zend_argument_value_error(format_arg, "must be a GPUPOST_* format constant");
		return false;
	}
	if (mode != GP_MODE_VALUES && mode != GP_MODE_DOCS && mode != GP_MODE_POSTINGS) {
		zend_argument_value_error(mode_arg, "must be GPUPOST_VALUES, GPUPOST_DOCS or GPUPOST_POSTINGS");
		return false;
	}
	if (format != GP_FORMAT_MOD9 && mode != GP_MODE_VALUES) {
		zend_argument_value_error(mode_arg, "must be GPUPOST_VALUES for this format (DOCS and POSTINGS are MOD9 only)");
		return false;
	}
	return true;
}

/* What memory_limit leaves now: the limit less what PHP's heap has taken from the system (its
 * chunks and huge blocks: what Zend checks the limit against; a fragmented heap holds far more
 * than its live allocations, and the free room inside its chunks serves only small requests),
 * less a slack for what the allocator rounds: a chunk of 2 MiB, pages partly filled. */
uint64_t memory_left(void)
{
	zend_long limit = PG(memory_limit);
	if (limit <= 0) return UINT64_MAX;
	size_t used = zend_memory_usage(true);
	if ((size_t)limit <= used) return 0;
	uint64_t left = (uint64_t)((size_t)limit - used);
	uint64_t slack = ((uint64_t)2 << 20) + left / 64;   /* a new chunk's rounding, and pages' */
	return left > slack ? left - slack : 0;
}

/* The policy of one call (gp_ctx): the INI settings, what memory_limit leaves, and how many
 * lists the call returns. */
void call_ctx(gp_ctx *ctx, size_t lists)
{
	ctx->device = device_spec();
	ctx->device_all = device_all();
	ctx->min_device_values = GPUPOST_G(min_device_values);
	ctx->budget.memory_left = memory_left();
	ctx->budget.max_result = (uint64_t)GPUPOST_G(max_result_bytes);
	ctx->budget.lists = lists;
	ctx->budget.face = &gpupost_php_face;   /* Zend's array sizes, PHP's names for the limits */
}

/* After a call: what the process keeps for the next one back under gpupost.max_cached_bytes. */
void call_end(void)
{
	gp_trim_cached((uint64_t)GPUPOST_G(max_cached_bytes));
}

/* ValueError for an option the function does not know, named by its key (a string or an int). */
void unknown_option(uint32_t arg, const zend_string *key, zend_ulong ikey)
{
	if (key) zend_argument_value_error(arg, "has an unknown option %s", ZSTR_VAL(key));
	else zend_argument_value_error(arg, "has an unknown option " ZEND_LONG_FMT, (zend_long)ikey);
}

/* A GpuPost\Exception naming the size and the limit, unless `what` fits the budget. */
bool fits_budget(const gp_ctx *ctx, uint64_t php_bytes, uint64_t c_bytes, const char *what)
{
	gp_error err;
	if (gp_budget_check(&ctx->budget, php_bytes, c_bytes, what, &err) == GP_OK) return true;
	gpupost_throw(&err, NULL);
	return false;
}



/* Copies the ints of a PHP list into a C array; TypeError for anything else. */
int64_t *ints_from_array(HashTable *ht, uint32_t arg, size_t *n)
{
	zval *item;
	size_t i = 0;
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	if (!fits_budget(&ctx, ((uint64_t)zend_hash_num_elements(ht) + 1) * sizeof(int64_t), 0, "a copy of the array")) {
		return NULL;
	}
	int64_t *out = safe_emalloc(zend_hash_num_elements(ht) + 1, sizeof(int64_t), 0);
	ZEND_HASH_FOREACH_VAL(ht, item) {
		ZVAL_DEREF(item);
		if (Z_TYPE_P(item) != IS_LONG) {
			zend_argument_type_error(arg, "must contain only int, %s given", zend_zval_type_name(item));
			efree(out);
			return NULL;
		}
		out[i++] = Z_LVAL_P(item);
	} ZEND_HASH_FOREACH_END();
	*n = i;
	return out;
}

/* --- introspection --- */

static void device_info_array(zval *rv, const gp_device_info *d)
{
	array_init(rv);
	add_assoc_string(rv, "name", (char *)d->device);
	add_assoc_string(rv, "vendor", (char *)d->vendor);
	add_assoc_string(rv, "version", (char *)d->version);
	add_assoc_string(rv, "type", (char *)d->type);
	add_assoc_long(rv, "compute_units", (zend_long)d->compute_units);
	add_assoc_long(rv, "global_mem", (zend_long)d->global_mem);
	add_assoc_long(rv, "max_alloc", (zend_long)d->max_alloc);
	add_assoc_long(rv, "max_work_group", (zend_long)d->max_work_group);
	add_assoc_long(rv, "index", (zend_long)d->device_index);
}

GP_FUNCTION(gpu_info)
{
	zval platform, device, ini, cached;
	gp_backend_info b;
	ZEND_PARSE_PARAMETERS_NONE();
	gp_backend(device_spec(), device_all(), &b);
	const gp_device_info *d = b.device;
	array_init(return_value);
	add_assoc_string(return_value, "backend", b.usable ? "opencl" : "host");
	add_assoc_string(return_value, "last_backend", (char *)b.last_backend);
	if (d) {
		array_init(&platform);
		add_assoc_string(&platform, "name", (char *)d->platform);
		add_assoc_string(&platform, "version", (char *)d->platform_version);
		add_assoc_long(&platform, "index", (zend_long)d->platform_index);
		device_info_array(&device, d);
		add_assoc_zval(return_value, "platform", &platform);
		add_assoc_zval(return_value, "device", &device);
	} else {
		add_assoc_null(return_value, "platform");
		add_assoc_null(return_value, "device");
	}
	/* every device this process uses (several with gpupost.multi_device=all), and how they were
	 * picked from gpupost.device's set */
	zval devices;
	array_init(&devices);
	for (size_t i = 0; i < b.n_devices; i++) {
		zval one;
		device_info_array(&one, b.devices[i]);
		add_assoc_long(&one, "platform_index", (zend_long)b.devices[i]->platform_index);
		add_assoc_double(&one, "speed", b.speeds[i]);
		add_next_index_zval(&devices, &one);
	}
	add_assoc_zval(return_value, "devices", &devices);
	add_assoc_long(return_value, "devices_in_set", (zend_long)b.in_set);
	if (b.rule && b.rule[0]) {
		add_assoc_string(return_value, "device_rule", (char *)b.rule);
	} else {
		add_assoc_null(return_value, "device_rule");
	}
	add_assoc_bool(return_value, "kernels_built", b.built);
	/* the launch shapes chosen for this device when the kernels were built */
	if (b.built) {
		zval tuning;
		array_init(&tuning);
		add_assoc_long(&tuning, "work_group", (zend_long)b.shape.work_group);
		add_assoc_long(&tuning, "small_group", (zend_long)b.shape.small_group);
		add_assoc_long(&tuning, "staged_values_64", (zend_long)b.shape.stage_items_64);
		add_assoc_long(&tuning, "staged_values_32", (zend_long)b.shape.stage_items_32);
		add_assoc_long(&tuning, "qs_words", (zend_long)b.shape.qs_items);
		add_assoc_long(&tuning, "tile_words", (zend_long)b.shape.tile_items);
		add_assoc_long(&tuning, "wah_words", (zend_long)b.shape.wah_items);
		add_assoc_zval(return_value, "tuning", &tuning);
	} else {
		add_assoc_null(return_value, "tuning");
	}
	add_assoc_bool(return_value, "auto_device", b.auto_device);
	if (b.usable || !b.reason[0]) {
		add_assoc_null(return_value, "reason");
	} else {
		add_assoc_string(return_value, "reason", (char *)b.reason);
	}
	/* device calls that failed and were served by the host path, and the last failure */
	add_assoc_long(return_value, "device_failures", (zend_long)b.device_failures);
	if (b.usable && b.device_failures > 0 && b.reason[0]) {
		add_assoc_string(return_value, "last_device_error", (char *)b.reason);
	} else {
		add_assoc_null(return_value, "last_device_error");
	}
	array_init(&ini);
	add_assoc_string(&ini, "gpupost.device", GPUPOST_G(device) ? GPUPOST_G(device) : "auto");
	add_assoc_string(&ini, "gpupost.multi_device", device_all() ? "all" : "spread");
	add_assoc_long(&ini, "gpupost.min_device_values", GPUPOST_G(min_device_values));
	add_assoc_long(&ini, "gpupost.max_result_bytes", GPUPOST_G(max_result_bytes));
	add_assoc_long(&ini, "gpupost.max_cached_bytes", GPUPOST_G(max_cached_bytes));
	add_assoc_long(&ini, "gpupost.max_resident_bytes", GPUPOST_G(max_resident_bytes));
	add_assoc_string(&ini, "gpupost.server", GPUPOST_G(server) ? GPUPOST_G(server) : "");
	add_assoc_long(&ini, "gpupost.server_timeout", GPUPOST_G(server_timeout));
	add_assoc_zval(return_value, "ini", &ini);
	/* what this process keeps between calls (bounded by gpupost.max_cached_bytes) */
	array_init(&cached);
	add_assoc_long(&cached, "host_scratch", (zend_long)b.cached.host_scratch);
	add_assoc_long(&cached, "pinned", (zend_long)b.cached.pinned);
	add_assoc_long(&cached, "device", (zend_long)b.cached.device);
	add_assoc_zval(return_value, "cached", &cached);
	add_assoc_long(return_value, "resident", (zend_long)gpupost_resident_bytes());
	add_assoc_bool(return_value, "test_hooks", b.test_hooks);
	add_assoc_long(return_value, "pid", (zend_long)getpid());
	/* gpupostd's statistics where gpupost.server names one (null otherwise) */
	if (gpupost_server_socket()) {
		zval server;
		gpupost_server_info(&server);
		add_assoc_zval(return_value, "server", &server);
	} else {
		add_assoc_null(return_value, "server");
	}
	if (gp_trace.on) {   /* GPUPOST_TRACE=1: the last call's steps, microseconds from its start */
		zval steps;
		array_init(&steps);
		for (size_t i = 0; i < gp_trace.n; i++) {
			zval step;
			array_init(&step);
			add_next_index_string(&step, gp_trace.step[i]);
			add_next_index_double(&step, (double)(gp_trace.ns[i] - gp_trace.ns[0]) / 1e3);
			add_next_index_zval(&steps, &step);
		}
		add_assoc_zval(return_value, "trace", &steps);
	}
}

/* --- module --- */

static PHP_GINIT_FUNCTION(gpupost)
{
#if defined(COMPILE_DL_GPUPOST) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(gpupost_globals, 0, sizeof(*gpupost_globals));
}

#if defined(ZTS) && !defined(GP_ZTS_UNLOCKED)
static pthread_mutex_t gpupost_mutex;

void gpupost_lock(void)
{
	pthread_mutex_lock(&gpupost_mutex);
}

void gpupost_unlock(void)
{
	pthread_mutex_unlock(&gpupost_mutex);
}
#endif

PHP_MINIT_FUNCTION(gpupost)
{
#if defined(ZTS) && !defined(GP_ZTS_UNLOCKED)
	pthread_mutexattr_t recursive;
	pthread_mutexattr_init(&recursive);
	pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&gpupost_mutex, &recursive);
	pthread_mutexattr_destroy(&recursive);
#endif
	REGISTER_INI_ENTRIES();
	gp_device_option_names("gpupost.device", "gpupost.multi_device=all");
	gp_trace_init();
	register_gpupost_symbols(module_number);
	gpupost_exception_ce = register_class_GpuPost_Exception(spl_ce_RuntimeException);
	gpupost_index_minit(register_class_GpuPost_Index(zend_ce_countable));
	return SUCCESS; /* no OpenCL work here: the device opens on first use, after any fork */
}

PHP_MSHUTDOWN_FUNCTION(gpupost)
{
	gpupost_resident_shutdown();   /* the persistent indexes' device copies before the device */
	gpupost_server_shutdown();
	gp_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static void gpupost_minfo(zend_module_entry *zend_module);

PHP_MINFO_FUNCTION(gpupost)
{
	GP_LOCKED(gpupost_minfo(zend_module));
}

static void gpupost_minfo(zend_module_entry *zend_module)
{
	char buf[160];
	gp_backend_info b;
	gp_backend(device_spec(), device_all(), &b);
	const gp_device_info *d = b.device;
	php_info_print_table_start();
	php_info_print_table_header(2, "gpupost support", "enabled");
	php_info_print_table_row(2, "Version", PHP_GPUPOST_VERSION);
	php_info_print_table_row(2, "Formats", "MOD9, S9, QS, WAH, VBYTE, GROUP_VARINT");
	php_info_print_table_row(2, "Backend", b.usable ? "opencl" : "host");
	if (d) {
		php_info_print_table_row(2, "OpenCL platform", d->platform);
		php_info_print_table_row(2, "OpenCL device", d->device);
		php_info_print_table_row(2, "Device type", d->type);
		php_info_print_table_row(2, "Device version", d->version);
		snprintf(buf, sizeof(buf), "%u", d->compute_units);
		php_info_print_table_row(2, "Compute units", buf);
		snprintf(buf, sizeof(buf), "%llu MiB", d->global_mem >> 20);
		php_info_print_table_row(2, "Global memory", buf);
	}
	if (b.rule && b.rule[0]) {
		php_info_print_table_row(2, "Devices picked", b.rule);
	}
	for (size_t i = 1; i < b.n_devices; i++) {
		snprintf(buf, sizeof(buf), "%d:%d %s", b.devices[i]->platform_index, b.devices[i]->device_index,
		         b.devices[i]->device);
		php_info_print_table_row(2, "Also used", buf);
	}
	php_info_print_table_row(2, "Kernels built", b.built ? "yes" : "no");
	if (b.built) {
		snprintf(buf, sizeof(buf), "work-group %zu (a one-tile call's from %zu), staged values %zu (64-bit) and %zu "
		         "(32-bit), QS words %zu, MOD9/S9 words %zu, WAH output words %zu", b.shape.work_group,
		         b.shape.small_group, b.shape.stage_items_64, b.shape.stage_items_32, b.shape.qs_items, b.shape.tile_items,
		         b.shape.wah_items);
		php_info_print_table_row(2, "Launch shapes", buf);
	}
	if (d) {
		php_info_print_table_row(2, "Automatic dispatch", strcmp(d->type, "cpu") == 0
			? "host path (a CPU device is used only with gpupost.min_device_values=0)"
			: "device above gpupost.min_device_values");
	}
	if (!b.usable && b.reason[0]) {
		php_info_print_table_row(2, "Why host", b.reason);
	}
	snprintf(buf, sizeof(buf), "host scratch %llu bytes, pinned staging %llu bytes, device buffers %llu bytes",
	         (unsigned long long)b.cached.host_scratch, (unsigned long long)b.cached.pinned,
	         (unsigned long long)b.cached.device);
	php_info_print_table_row(2, "Kept between calls", buf);
	gpupost_index_minfo();
	if (b.test_hooks) {
		php_info_print_table_row(2, "Test hooks", "compiled in (GPUPOST_FAULT, GPUPOST_FORCE_STAGING): a test build");
	}
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

zend_module_entry gpupost_module_entry = {
	STANDARD_MODULE_HEADER,
	"gpupost",
	ext_functions,
	PHP_MINIT(gpupost),
	PHP_MSHUTDOWN(gpupost),
	NULL,
	NULL,
	PHP_MINFO(gpupost),
	PHP_GPUPOST_VERSION,
	PHP_MODULE_GLOBALS(gpupost),
	PHP_GINIT(gpupost),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_GPUPOST
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(gpupost)
#endif
